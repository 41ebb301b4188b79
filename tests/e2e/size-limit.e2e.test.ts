// What a 413 teaches, on the upload page, in both browsers: "smaller than" the refused size when
// the answer states no limit (a proxy's page), the server's own limit when it states one, and the
// next file over either refused before a byte is sent.
import { describe, expect, it } from 'vitest';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import type { ReferenceServer } from '../testkit/server';
import type { Driver } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { serverForFile } from './support/servers';
import { chooseFiles } from './support/uploads';

const KIB = 1024;
const MIB = 1024 * KIB;

/** Behind a proxy that refuses large bodies with a page of its own. */
const proxied = serverForFile({ record: true });
/** Teknik's own answer, which states the limit. */
const limited = serverForFile({ record: true, maxUploadBytes: MIB });

/** The upload page for `server`, and a way to upload `size` zero bytes and read how the job ended. */
async function uploadPage(d: Driver, server: ReferenceServer) {
  await d.setSettings(serverSettings(server, 'current'));
  const page = await d.open('upload.html');
  const send = async (name: string, size: number) => {
    await chooseFiles(page, { name, buffer: Buffer.alloc(size) });
    const job = { css: '.job[data-state="done"], .job[data-state="failed"]', hasText: name };
    await page.waitFor(job, { timeout: 60_000 });
    const state = await page.attribute(job, 'data-state');
    const error = state === 'failed' ? await page.text({ css: '.error', within: job }) : null;
    const said = { css: '.error + .small', within: job };
    const detail = (await page.count(said)) > 0 ? await page.text(said) : null;
    return { state, error, detail };
  };
  /** Waits for the page's lead paragraph to state the limit. */
  const leadSays = (text: string) =>
    until(
      async () => ((await page.text('.lead')).includes(text) ? true : undefined),
      `the lead to say ${text}`,
    );
  return { page, send, leadSays };
}

forEachBrowser({}, (d) => {
  describe('a 413 that states no limit (a proxy in front of the server)', () => {
    it('says "smaller than" the refused size, and refuses the next file at or over it before sending', async () => {
      const ref = proxied;
      const { page, send, leadSays } = await uploadPage(d, ref.server);
      try {
        ref.server.setFault('proxy-413', { once: true });
        const first = await send('first.bin', 512 * KIB);
        expect(first).toMatchObject({
          state: 'failed',
          error: 'The file is too large for Test server: it only takes files smaller than 512 KiB.',
        });
        await leadSays('(smaller than 512 KiB)');
        await page.screenshot('size-limit-unstated');
        const sent = ref.server.requests.length;

        // The fault was used up: anything that reached the server now would be stored.
        for (const [name, size] of [
          ['same.bin', 512 * KIB],
          ['bigger.bin', 600 * KIB],
        ] as const) {
          expect(await send(name, size)).toMatchObject({
            state: 'failed',
            error: `This file is ${size / KIB} KiB, but Test server only takes files smaller than 512 KiB. Nothing was sent.`,
          });
        }
        expect(ref.server.requests.length).toBe(sent);

        expect((await send('fits.bin', 512 * KIB - 1)).state).toBe('done');
        expect(ref.server.requests.length).toBe(sent + 1);
      } finally {
        ref.server.setFault(null);
        await page.close();
      }

      const options = await d.open('options.html');
      try {
        await until(
          async () =>
            (await options.text('#size-limit-hint')) === 'Learned from the server: smaller than 512 KiB.' ||
            undefined,
          'the learned limit in the options',
        );
        expect(await options.inputValue('#size-limit')).toBe('');
      } finally {
        await options.close();
      }
    });
  });

  describe('a 413 that states the limit (Teknik’s answer)', () => {
    it('uses the stated limit, says "at most", and refuses the next file over it before sending', async () => {
      const ref = limited;
      const { page, send, leadSays } = await uploadPage(d, ref.server);
      try {
        const first = await send('first.bin', 3 * MIB);
        expect(first).toMatchObject({
          state: 'failed',
          error: 'The file is too large for Test server: it only takes files of at most 1 MiB.',
        });
        expect(first.detail).toMatch(/The server said: .File Too Large\. +Max file size is 1 MiB/);
        await leadSays('(at most 1 MiB)');
        await page.screenshot('size-limit-stated');
        const sent = ref.server.requests.length;

        expect(await send('over.bin', 2 * MIB)).toMatchObject({
          state: 'failed',
          error: 'This file is 2 MiB, but Test server only takes files of at most 1 MiB. Nothing was sent.',
        });
        expect(ref.server.requests.length).toBe(sent);

        // The stated limit is inclusive: a file of exactly that size goes.
        expect((await send('exactly.bin', MIB)).state).toBe('done');
        expect(ref.server.requests.length).toBe(sent + 1);
      } finally {
        await page.close();
      }
    });
  });
});
