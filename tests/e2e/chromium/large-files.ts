// What the Chromium-only large-file tests share: the upload page opened with the workers it
// starts noted (Playwright's worker event), and a Cancel click made by the page itself at a given
// point of an upload.
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from '../../../devkit/chromium';
import type { Settings } from '../../../lib/settings';

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
  settings: Settings,
): Promise<{ page: Page; workers: string[] }> {
  await browser.setSettings(settings);
  const page = await browser.ctx.newPage();
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(browser.url('upload.html'));
  await page.locator('#file').waitFor({ state: 'attached' });
  return { page, workers };
}
