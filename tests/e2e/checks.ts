// What several e2e files check the same way: decrypting a link as the README describes it, and
// accessibility with axe-core.
import { createDecipheriv, createHash, type Decipher } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { storedBytes } from '../recipient/stored-bytes';

declare const axe: any;

// The documented IV rule, written again here so the tests check the README, not the code.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function ivFromKey(key: string): string {
  const h = createHash('sha256').update(key, 'utf8').digest();
  return [...h.subarray(0, 16)].map((b) => ALPHABET[b % 62]).join('');
}

/** Node's own AES-256-CTR for a link's key, with the key-derived IV. */
export function decipherFor(key: string): Decipher {
  return createDecipheriv('aes-256-ctr', Buffer.from(key, 'utf8'), Buffer.from(ivFromKey(key), 'utf8'));
}

/** Fetches what a link points at (as a program does: README, "Recipients") and decrypts it with its key. */
export async function openLink(link: string): Promise<Buffer> {
  const key = link.split('#')[1]!;
  const d = decipherFor(key);
  const cipher = Buffer.from((await storedBytes(link)).bytes);
  return Buffer.concat([d.update(cipher), d.final()]);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`);
}
