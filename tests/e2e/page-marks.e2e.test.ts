// A page cannot tell that Hushdrop is installed from what the content script does to it: a page
// with payment links records every change to its DOM (a MutationObserver from before the script
// runs), compares its final DOM with a fresh parse of its own source, and lists its new globals.
// Once the extension has surely read the page (the toolbar badge, which the page cannot see,
// counts its links), none of them shows a trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { forEachBrowser } from './driver/each-browser';
import { type Attacker, startAttacker } from './support/attacker';

let site: Attacker;

beforeAll(async () => {
  site = await startAttacker();
});

afterAll(async () => {
  await site?.close();
});

/** What the page saw: mutation records, how its DOM differs from its source, globals it did not define. */
interface Traces {
  mutations: string[];
  sameAsSource: boolean;
  titles: string[];
  datasets: string[];
  newGlobals: string[];
}

/**
 * The page watches itself from its first script on: every mutation record, and the globals that
 * exist before anything of its own. The last script drops the records of the parser's own work;
 * nothing follows it, so from there on only something else can change the page.
 */
const PAGE = `<!doctype html><html lang="en"><head><title>Shop</title><script>
  window.__before = Object.getOwnPropertyNames(window);
  window.__mutations = [];
  const note = (records) => {
    for (const r of records)
      window.__mutations.push(r.type + ' ' + (r.target.id || r.target.nodeName) + ' ' + (r.attributeName || ''));
  };
  window.__observer = new MutationObserver(note);
  window.__observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
</script></head><body><h1>Pay for your tea</h1>
<a id="bip72" href="bitcoin:?r=http%3A%2F%2F127.0.0.1%3A9%2Fnever">Pay with a payment request</a>
<a id="plain" href="bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0015">Pay on-chain</a>
<a id="about" href="/about">About</a><script>
  // What the parser did is the page itself; from here on, nothing but an extension changes it.
  window.__observer.takeRecords();
  window.__mutations = [];
  window.__ownGlobals = ['__before', '__mutations', '__observer', '__ownGlobals', '__traces'];
  window.__traces = async () => {
    const source = await (await fetch(location.href, { cache: 'no-store' })).text();
    const parsed = new DOMParser().parseFromString(source, 'text/html');
    const before = new Set(window.__before);
    return {
      mutations: window.__mutations.concat(window.__observer.takeRecords().map((r) => r.type)),
      sameAsSource: parsed.documentElement.outerHTML === document.documentElement.outerHTML,
      titles: [...document.querySelectorAll('[title]')].map((e) => e.id + ': ' + e.title),
      datasets: [...document.querySelectorAll('*')].filter((e) => Object.keys(e.dataset).length).map((e) => e.id || e.nodeName),
      newGlobals: Object.getOwnPropertyNames(window).filter((n) => !before.has(n) && !window.__ownGlobals.includes(n)),
    };
  };
</script></body></html>`;

forEachBrowser({}, (d) => {
  describe('a page with payment links', () => {
    it('finds no trace of Hushdrop after the extension counted its links', async () => {
      const url = site.page('/shop.html', PAGE);
      const page = await d.openUrl(url);
      // The signal that the content script has read the page, from outside the page.
      await until(async () => ((await d.badgeText(page)) === '2' ? true : undefined), 'the badge to say 2');
      const traces = await page.evaluate(() => (window as any).__traces() as Promise<Traces>);
      expect(traces).toEqual({
        mutations: [],
        sameAsSource: true,
        titles: [],
        datasets: [],
        newGlobals: [],
      });
      await page.close();
    });
  });
});
