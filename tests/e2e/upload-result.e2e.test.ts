// The upload page's one step, in both browsers (issue 20): choosing a file starts its upload; the
// job's progress and then its link show inside the viewport at a desktop (1280×800) and a phone
// (400×800) width, with focus on Copy link at the end; and the one bar of a client-mode upload of
// a few MiB never goes back. The page itself notes every progress it renders (a MutationObserver
// installed before the file is chosen), so nothing here samples on a timer.
import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { serverSettings } from '../../devkit/settings';
import type { DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { screenshotAndAxe } from './support/axe';
import { UNGRANTED_HOST } from './support/hosts';
import { serverForFile } from './support/servers';
import { DONE_LINK, FILE_INPUT, submitFile } from './support/uploads';

const MIB = 1024 * 1024;

const ref = serverForFile({ host: UNGRANTED_HOST });

interface Seen {
  id: string;
  value: number;
  inView: boolean;
}

/**
 * Runs in the page: notes each rendered progress bar (its value, and whether it lies inside the
 * viewport) in a data attribute of the root, which both browsers' scripts read back.
 */
function noteProgress(): void {
  const root = document.documentElement;
  const seen: Seen[] = [];
  const note = () => {
    const vw = root.clientWidth;
    const vh = root.clientHeight;
    for (const bar of document.querySelectorAll<HTMLProgressElement>('.job progress')) {
      const r = bar.getBoundingClientRect();
      seen.push({
        id: bar.id,
        value: bar.value,
        inView: r.top >= 0 && r.left >= 0 && r.bottom <= vh && r.right <= vw && r.height > 0,
      });
    }
    root.dataset.seen = JSON.stringify(seen);
  };
  new MutationObserver(note).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

async function progressSeen(page: DriverPage): Promise<Seen[]> {
  return JSON.parse((await page.attribute('html', 'data-seen')) ?? '[]');
}

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
  beforeAll(() => d.setSettings(serverSettings(ref.server, 'current')));

  for (const [width, height] of [
    [1280, 800],
    [400, 800],
  ] as const) {
    it(`at ${width}×${height}, the first upload's progress and then its link are in view, with focus on Copy link`, async () => {
      const page = await d.open('upload.html');
      try {
        await page.setViewport(width, height);
        await page.waitFor(FILE_INPUT);
        await page.evaluate(noteProgress);
        const link = await submitFile(page, { name: `in-view-${width}.bin`, buffer: randomBytes(MIB) });
        expect(link).toMatch(/#[A-Za-z0-9]{32}$/);

        const seen = await progressSeen(page);
        expect(seen.length, 'no progress was rendered').toBeGreaterThan(0);
        expect(
          seen.filter((s) => !s.inView),
          'progress out of view',
        ).toEqual([]);

        const after = await page.evaluate((selector) => {
          const root = document.documentElement;
          const r = document.querySelector(selector)!.getBoundingClientRect();
          const active = document.activeElement as HTMLElement | null;
          return {
            linkInView:
              r.top >= 0 && r.left >= 0 && r.bottom <= root.clientHeight && r.right <= root.clientWidth,
            focusTag: active?.tagName ?? '',
            // The button beside the link field (CopyField: the input and its Copy button share a row).
            focusCopiesLink: !!active?.parentElement?.querySelector(
              selector.replace('.job[data-state="done"] ', ''),
            ),
            focusLabel: active?.getAttribute('aria-label') ?? '',
          };
        }, DONE_LINK);
        expect(after.linkInView, 'link out of view').toBe(true);
        expect(after).toMatchObject({ focusTag: 'BUTTON', focusCopiesLink: true, focusLabel: 'Copy Link' });
        // The finished job, its picker and options: nothing serious for axe at either width.
        await screenshotAndAxe(page, `upload-result-${width}`);
      } finally {
        await page.close();
      }
    });
  }

  it('the one bar of a client-mode upload of a few MiB never goes back', async () => {
    const page = await d.open('upload.html');
    try {
      await page.waitFor(FILE_INPUT);
      await page.evaluate(noteProgress);
      await submitFile(page, { name: 'bar.bin', buffer: randomBytes(8 * MIB) }, 60_000);
      const values = (await progressSeen(page)).map((s) => s.value);
      // At least the first render and a report of each phase.
      expect(values.length).toBeGreaterThan(2);
      const backwards = values.flatMap((v, i) =>
        i > 0 && v < values[i - 1]! ? [`${values[i - 1]} → ${v}`] : [],
      );
      expect(backwards, `values seen: ${values.join(', ')}`).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
