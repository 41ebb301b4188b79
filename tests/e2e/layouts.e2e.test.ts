// Every page at a phone width and a desktop width, light and dark, in both browsers (issue 20):
// each page is shown with what a person would have there (uploads in the history, a finished job
// on the upload page, a payment request and the list of requests viewed), and at 360×800, 400×800 and
// 1280×800, in each colour scheme, the document is no wider than the viewport (no sideways
// scrolling), no dropdown cuts off its text, axe finds nothing serious, no card says the same
// sentence twice, and the popup with many uploads stays under the browsers' 600 px popup limit.
// Each state is saved as tests/e2e/.screens/<browser>/<page>-<width>-<scheme>.png for a person.
//
// Colour schemes: Chromium emulates prefers-color-scheme per page; Firefox sets its content
// override pref at run time (driver.ts, setColorScheme), so one launch per browser serves both.
// A page is one entry of PAGES: a new page is one line there (and its content, if it needs any).
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { historyExport } from '../../devkit/history';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import { type Merchant, startMerchant } from '../merchant/server';
import type { Driver, DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { seriousViolations } from './support/axe';
import { historyCount } from './support/history';
import { UNGRANTED_HOST as HOST } from './support/hosts';
import { allowPaymentOrigins } from './support/payment-origins';
import { serverForFile } from './support/servers';
import { chooseFiles, DONE_LINK, FILE_INPUT, openInViewer } from './support/uploads';

const SCREENS = resolve('tests/e2e/.screens');
const WIDTHS = [360, 400, 1280] as const;
const HEIGHT = 800;
const SCHEMES = ['light', 'dark'] as const;
/** Chromium and Firefox cut an action popup off at 600 px. */
const POPUP_LIMIT = 600;
/** The popup's own width (assets/ui.css, body.popup). */
const POPUP_WIDTH = 420;
/** Uploads brought in through Import before the real ones: enough that a list would grow past a screen. */
const IMPORTED = 12;

const ref = serverForFile({ host: HOST });

/** What the pages are filled with, made once per browser. */
interface Content {
  /** The upload page, left with its finished jobs. */
  upload: DriverPage;
  /** The link of the last real upload (the viewer and the recipient page open it). */
  link: string;
  /** A BIP70 request of the test merchant, served over plain http. */
  requestUrl: string;
  pageUrl: string;
}

interface PageEntry {
  name: string;
  /** Opens the page with its content and waits until it shows it. */
  open(d: Driver, c: Content): Promise<DriverPage>;
  /** The upload page is the one the uploads happened in: it stays open for later tests. */
  keepOpen?: boolean;
  /** An action popup: its height is bounded by the browser. */
  popup?: boolean;
  /** What else this page must hold at every size: a sentence per problem. */
  also?(page: DriverPage): Promise<string[]>;
}

/** Opens an extension page and waits for `ready`. */
const extensionPage =
  (path: string, ready: string) =>
  async (d: Driver): Promise<DriverPage> => {
    const page = await d.open(path);
    await page.waitFor(ready, { visible: true });
    return page;
  };

const PAGES: PageEntry[] = [
  { name: 'popup', open: extensionPage('popup.html', '#recent-h'), popup: true },
  { name: 'upload', open: async (_, c) => c.upload, keepOpen: true },
  { name: 'uploads', open: extensionPage('uploads.html', 'tbody tr') },
  { name: 'options', open: extensionPage('options.html', '#server-h') },
  // Its two faces: the server uploads go to, already tested (the profile here is), and the form for another.
  { name: 'welcome', open: extensionPage('welcome.html', '#set-up-already') },
  {
    name: 'welcome-form',
    open: async (d) => {
      const page = await extensionPage('welcome.html', '#other-server')(d);
      await page.click('#other-server');
      await page.waitFor('#address', { visible: true });
      return page;
    },
  },
  {
    name: 'viewer',
    open: async (d, c) => {
      const viewer = await openInViewer(d, c.link);
      await viewer.waitFor('#save', { visible: true });
      return viewer;
    },
  },
  {
    name: 'payment',
    open: async (d, c) => {
      const page = await d.open(`payment.html?${new URLSearchParams({ r: c.requestUrl, page: c.pageUrl })}`);
      await fetchRequest(page);
      await page.waitFor('#recent tbody tr', { visible: true });
      return page;
    },
    // The merchant is on plain http: the request and its payment address. One warning says so.
    also: async (page) => {
      const said = (await page.text('#verdict')).match(/plain http/g)?.length ?? 0;
      return said > 1 ? [`the verdict card warns of plain http ${said} times`] : [];
    },
  },
  {
    name: 'recipient',
    open: async (d, c) => {
      const page = await d.openUrl(c.link);
      await page.waitFor('#download', { visible: true });
      return page;
    },
  },
  {
    // The server's home page, the upload page for people without the extension.
    name: 'home',
    open: async (d, c) => {
      const page = await d.openUrl(`${new URL(c.link).origin}/`);
      await page.waitFor('#files', { visible: true });
      return page;
    },
  },
];

/** The payment page: presses its button to fetch the request (the host is granted), waits for the verdict. */
async function fetchRequest(page: DriverPage): Promise<void> {
  await page.waitFor('#fetch-request, #verdict, #error');
  if ((await page.count('#fetch-request')) > 0) await page.click('#fetch-request');
  await page.waitFor('#verdict', { visible: true });
}

/** Runs in the page: what it measures at this size, for the checks and their failure messages. */
function measure(): {
  docWidth: number;
  viewportWidth: number;
  widest: string[];
  popupHeight: number;
  repeated: string[];
  cut: string[];
} {
  const root = document.documentElement;
  const viewportWidth = root.clientWidth;
  const name = (e: Element) =>
    e.tagName.toLowerCase() +
    (e.id ? `#${e.id}` : '') +
    [...e.classList].map((c) => `.${c}`).join('') +
    ` (${Math.round(e.getBoundingClientRect().right)} px)`;
  // The outermost elements that reach past the viewport's right edge: where the overflow starts.
  const over = [...document.body.querySelectorAll('*')].filter(
    (e) => e.getBoundingClientRect().right > viewportWidth + 0.5 && e.getClientRects().length > 0,
  );
  const widest = over.filter((e) => !over.includes(e.parentElement!)).map(name);
  // The same sentence twice in one card (e.g. one warning shown by two parts of the card).
  const repeated: string[] = [];
  for (const card of document.querySelectorAll('.card')) {
    const seen = new Set<string>();
    for (const p of card.querySelectorAll('p, li')) {
      const text = (p as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
      if (!text || (p as HTMLElement).getClientRects().length === 0) continue;
      if (seen.has(text)) repeated.push(text);
      seen.add(text);
    }
  }
  // A dropdown too narrow for its options' text: a select cannot wrap, so the text is cut off. The
  // browser's own measure of what it needs: its width when sized to its content (widest option,
  // arrow and padding), set for a moment.
  const cut: string[] = [];
  for (const select of document.querySelectorAll('select')) {
    if (select.getClientRects().length === 0) continue;
    const shown = select.getBoundingClientRect().width;
    const { width, maxWidth, minWidth } = select.style;
    Object.assign(select.style, { width: 'max-content', maxWidth: 'none', minWidth: '0' });
    const needed = select.getBoundingClientRect().width;
    Object.assign(select.style, { width, maxWidth, minWidth });
    if (needed > shown + 0.5)
      cut.push(
        `${name(select)} shows ${Math.round(shown)} px of the ${Math.round(needed)} px its options need`,
      );
  }
  const body = document.body;
  return {
    cut,
    docWidth: root.scrollWidth,
    viewportWidth,
    widest: widest.slice(0, 5),
    popupHeight: body.getBoundingClientRect().bottom + Number.parseFloat(getComputedStyle(body).marginBottom),
    repeated,
  };
}

/** Waits for two frames: the layout of the new size and scheme is done and painted. */
const settled = (page: DriverPage) =>
  page.evaluate(
    () => new Promise<boolean>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))),
  );

forEachBrowser({ grantHosts: [HOST] }, (d) => {
  let merchant: Merchant;
  let content: Content;

  beforeAll(async () => {
    merchant = await startMerchant({ host: HOST });
    await d.setSettings(serverSettings(ref.server, 'current'));
    await d.setStorage({ paymentRoots: [Buffer.from(merchant.rootDer).toString('base64')] });
    await allowPaymentOrigins((items) => d.setStorage(items), merchant.origin);

    // History: earlier uploads imported, then three real ones on the upload page, left open.
    const list = await d.open('uploads.html');
    await list.setInputFiles('#import', {
      name: 'history.json',
      mimeType: 'application/json',
      buffer: historyExport(IMPORTED),
    });
    await until(async () => ((await historyCount(list)) === IMPORTED ? true : undefined), 'the import');
    await list.close();
    const upload = await d.open('upload.html');
    await upload.waitFor(FILE_INPUT);
    const names = ['Quarterly report – März 2026.pdf', 'holiday-photo.jpg', 'notes.txt'];
    await chooseFiles(
      upload,
      names.map((name) => ({ name, buffer: randomBytes(40_000) })),
    );
    await until(
      async () => ((await upload.count(DONE_LINK)) === names.length ? true : undefined),
      'three finished jobs',
    );
    const link = await upload.inputValue(DONE_LINK);
    content = {
      upload,
      link,
      requestUrl: merchant.requestUrl('sha256'),
      pageUrl: merchant.pageUrl,
    };
    // Requests viewed before, for the list of recent requests: an on-chain and a Lightning one.
    const bip21 = `bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0015&label=Tea%20shop`;
    const viewed = await d.open(`payment.html?${new URLSearchParams({ uri: bip21 })}`);
    await viewed.waitFor('#verdict');
    await viewed.close();
  }, 120_000);

  afterAll(async () => {
    await content?.upload.close();
    await merchant?.close();
  });

  for (const entry of PAGES)
    it(`${entry.name}: at 360, 400 and 1280 px, light and dark, no sideways scrolling, axe clean`, async () => {
      const page = await entry.open(d, content);
      const problems: string[] = [];
      try {
        for (const width of WIDTHS)
          for (const scheme of SCHEMES) {
            const at = `${entry.name} at ${width} px, ${scheme}`;
            await page.setViewport(width, HEIGHT);
            await page.setColorScheme(scheme);
            await settled(page);
            const m = await page.evaluate(measure);
            await page.screenshot(`${entry.name}-${width}-${scheme}`, resolve(SCREENS, d.name));
            if (m.docWidth > m.viewportWidth)
              problems.push(
                `${at}: the document is ${m.docWidth} px wide in a ${m.viewportWidth} px viewport; past the edge: ${m.widest.join(', ')}`,
              );
            for (const text of m.repeated) problems.push(`${at}: a card says twice "${text}"`);
            for (const text of m.cut) problems.push(`${at}: a dropdown cuts off its text: ${text}`);
            // The limit is a desktop popup's, at the popup's own width; narrower, the popup is a tab
            // (Firefox for Android opens it as one) that scrolls like any page.
            if (entry.popup && width >= POPUP_WIDTH && m.popupHeight > POPUP_LIMIT)
              problems.push(`${at}: the popup is ${Math.round(m.popupHeight)} px tall`);
            for (const v of await seriousViolations(page)) problems.push(`${at}: axe: ${v}`);
            for (const p of (await entry.also?.(page)) ?? []) problems.push(`${at}: ${p}`);
          }
      } finally {
        if (!entry.keepOpen) await page.close();
      }
      expect(problems).toEqual([]);
    });
});
