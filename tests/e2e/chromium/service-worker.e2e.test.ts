// Chromium only: its service worker sleeps when idle and the offscreen document goes on (Firefox
// keeps its background page alive, so there is no such case there). The worker is stopped here
// through the DevTools protocol, as Chromium stops it when it idles.
import { describe, expect, it } from 'vitest';
import { extensionWithServer, jobStates } from './harness';

declare const chrome: any;

const started = extensionWithServer();

describe('work that outlives its page', () => {
  it('a popup upload finishes after the popup closes and the service worker is stopped', async () => {
    // The server answers one byte at a time, so the job is surely still running when the worker stops.
    started.ref.server.setFault('drip', { once: true });
    const popup = await started.browser.open('popup.html');
    const size = 16 * 1024 * 1024;
    await popup.evaluate((n) => {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'outlives.bin', { type: 'application/octet-stream' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
    }, size);
    await expect
      .poll(async () => (await jobStates(started.browser)).some((j) => j.name === 'outlives.bin'))
      .toBe(true);
    await popup.close();

    // Stop the service worker, as Chromium does when it idles; the offscreen document goes on,
    // and its next message wakes a new worker.
    const page = await started.browser.open('uploads.html');
    const cdp = await started.browser.ctx.newCDPSession(page);
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find(
      (t) => t.type === 'service_worker' && t.url.includes(started.browser.extId),
    )!;
    expect((await cdp.send('Target.closeTarget', { targetId: worker.targetId })).success).toBe(true);
    const sessionJobs = async (): Promise<any[]> =>
      Object.values((await page.evaluate(() => chrome.storage.session.get('jobs'))).jobs ?? {});
    const find = async () => (await sessionJobs()).find((j) => j.name === 'outlives.bin');
    expect((await find())?.state).toBe('running');
    await expect.poll(async () => (await find())?.state, { timeout: 60_000 }).toMatch(/done|failed/);
    const job = await find();
    expect(job.state, job.error).toBe('done');
    const fileName = new URL(job.link.split('#')[0]).pathname.split('/').pop()!;
    expect((await started.ref.server.stored(fileName))?.contentLength).toBe(size);
    await page.close();
  });
});
