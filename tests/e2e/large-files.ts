// What the large-file e2e tests share: files of pseudo-random bytes on disk, the hash of a stored
// copy once decrypted, the extension's OPFS and history as seen from one of its pages, and a Cancel
// click made by the page itself at a given point of an upload.
import { createCipheriv, createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Page } from 'playwright-core';
import { decipherFor } from './checks';
import { type ExtensionBrowser, historyCount } from './harness';

export const MIB = 1024 * 1024;

/**
 * Writes `size` pseudo-random bytes to `path` a mebibyte at a time (AES-CTR keystream of a key made
 * from the path: fast, incompressible) and returns their SHA-256. Never holds more than a mebibyte.
 */
export async function writeRandomFile(path: string, size: number): Promise<string> {
  const stream = createCipheriv('aes-128-ctr', createHash('md5').update(path).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(MIB);
  const hash = createHash('sha256');
  const file = await open(path, 'w');
  try {
    for (let written = 0; written < size; written += MIB) {
      const chunk = stream.update(zeros.subarray(0, Math.min(MIB, size - written)));
      hash.update(chunk);
      await file.write(chunk);
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

/** SHA-256 of a stored ciphertext once decrypted with a link's key (and its derived IV), streaming. */
export async function decryptedHash(path: string, key: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: MIB }), decipherFor(key), hash);
  return hash.digest('hex');
}

/** Names in the extension origin's OPFS root (all extension pages and workers share it). */
export function opfsNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const names: string[] = [];
    for await (const name of (root as any).keys()) names.push(name as string);
    return names;
  });
}

/**
 * historyCount, without creating the database: opening it before the extension did would create
 * an empty version 1 that the extension's upgrade then skips, and history writes would fail.
 */
export async function historyEntries(page: Page): Promise<number> {
  const exists = await page.evaluate(async () =>
    (await indexedDB.databases()).some((d) => d.name === 'hushdrop'),
  );
  return exists ? historyCount(page) : 0;
}

/**
 * Arms a click on the job's Cancel button, made by the page itself in the very task that first
 * renders "<phase>… N %" with N ≥ `percent`, so the phase cannot move on before the click.
 */
export async function cancelWhen(
  page: Page,
  phase: 'Encrypting' | 'Uploading',
  percent: number,
): Promise<void> {
  await page.evaluate(
    ({ phase, percent }) => {
      const check = () => {
        const label = document.querySelector('.job[data-state="running"] label');
        const m = /^(\w+)… (\d+)/.exec(label?.textContent ?? '');
        if (!m || m[1] !== phase || Number(m[2]) < percent) return false;
        const button = [...document.querySelectorAll<HTMLButtonElement>('.job button')].find(
          (b) => b.textContent === 'Cancel',
        );
        if (!button) return false;
        (window as any).cancelledAt = label!.textContent;
        button.click();
        return true;
      };
      const observer = new MutationObserver(() => {
        if (check()) observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    { phase, percent },
  );
}

/** Opens the upload page with the given settings and notes every dedicated worker it starts. */
export async function openUploadPage(
  browser: ExtensionBrowser,
  settings: unknown,
): Promise<{ page: Page; workers: string[] }> {
  await browser.setSettings(settings);
  const page = await browser.ctx.newPage();
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(browser.url('upload.html'));
  await page.locator('#upload').waitFor();
  return { page, workers };
}
