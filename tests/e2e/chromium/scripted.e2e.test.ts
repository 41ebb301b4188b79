// What a hostile page can make Hushdrop do without the person: scripted clicks on payment links,
// openPayment messages forged in the content script's world (a compromised renderer), payment-page
// addresses that name a request, and floods of payment links. The page here is a loopback
// "attacker" that records every request it gets.
// Chromium only: it reads what the content script reported (linkReports), listens to messages in
// the service worker and forges messages through chrome.scripting; a page's clicks and floods are
// handled by the same content script and background code in Firefox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_CAP } from '../../../lib/payments/page-links';
import { type Attacker, startAttacker } from '../support/attacker';
import { allowPaymentOrigins } from '../support/payment-origins';
import { type ExtensionBrowser, launchExtension } from './harness';

declare const chrome: any;

let browser: ExtensionBrowser;
let attacker: Attacker;

beforeAll(async () => {
  attacker = await startAttacker();
  browser = await launchExtension();
});

afterAll(async () => {
  await browser?.close();
  await attacker?.close();
});

const bip72 = (path: string) => `bitcoin:?r=${encodeURIComponent(`${attacker.origin}${path}`)}`;

const paymentTabs = (): Promise<number> =>
  browser.sw.evaluate(
    // The extension's own pages by its contexts: Chromium 150 shows it no address of their tabs.
    async (prefix) =>
      new Set(
        (await chrome.runtime.getContexts({ contextTypes: ['TAB' as any] }))
          .filter((c: any) => c.documentUrl?.startsWith(prefix))
          .map((c: any) => c.tabId),
      ).size,
    browser.url('payment.html'),
  );

async function badgeOf(url: string): Promise<string> {
  return browser.sw.evaluate(async (u) => {
    const [tab] = await chrome.tabs.query({ url: u });
    return tab ? chrome.action.getBadgeText({ tabId: tab.id }) : 'no tab';
  }, url);
}

describe('scripted clicks', () => {
  it('a page clicking its own payment link 20 times opens nothing and fetches nothing; the page sees its clicks', async () => {
    const url = attacker.page(
      '/scripted.html',
      `<!doctype html><title>scripted</title>
<a id="lure" href="${bip72('/from-scripted-click')}">Pay</a>
<a id="real" href="${bip72('/trusted')}">Pay for real</a>
<script>
  // What the page's own handler sees of each click (bubbling, after the extension's capture listener).
  window.seen = [];
  document.addEventListener('click', (e) => {
    if (!e.target.closest('a')) return;
    window.seen.push(e.defaultPrevented);
    e.preventDefault();
  });
</script>`,
    );
    const page = await browser.ctx.newPage();
    await page.goto(url);
    // The content script has read the page (and listens for clicks) once the badge counts its links.
    await expect.poll(() => badgeOf(url)).toBe('2');
    await page.evaluate(() => {
      for (let i = 0; i < 20; i++) (document.getElementById('lure') as HTMLAnchorElement).click();
    });
    // The page's handler ran for every scripted click, and nothing of ours had prevented them.
    expect(await page.evaluate(() => (window as any).seen)).toEqual(Array(20).fill(false));

    // Then a person clicks: that one opens the payment page, which shows the request and waits (a
    // loopback address, not yet allowed); the person allows it there, and only then is it fetched.
    const [payment] = await Promise.all([browser.ctx.waitForEvent('page'), page.click('#real')]);
    await payment.locator('#private-host').waitFor();
    expect(attacker.seenAt('/trusted')).toEqual([]);
    await payment.click('#allow-private');
    await expect.poll(() => attacker.seenAt('/trusted').length).toBe(1);
    await payment.locator('#error, #verdict').first().waitFor();
    // The scripted clicks came first from the same page; none of them opened or fetched anything.
    expect(attacker.seenAt('/from-scripted-click')).toEqual([]);
    expect(await paymentTabs()).toBe(1);
    expect(await page.evaluate(() => (window as any).seen)).toHaveLength(20);
    await payment.close();
    await page.close();
  });
});

describe('openPayment forged by a compromised renderer', () => {
  it('five at once from a page’s content-script world: one tab, which fetches nothing by itself', async () => {
    const url = attacker.page('/forger.html', '<!doctype html><title>forger</title><p>nothing to click');
    const page = await browser.ctx.newPage();
    await page.goto(url);
    const before = await paymentTabs();
    // Sent the way our content script sends it, from the ISOLATED world of the page's tab: the
    // browser names the tab and page as the sender. Each reply comes once the background is done.
    const tabsBefore = await browser.sw.evaluate(async () => (await chrome.tabs.query({})).length);
    const opened = browser.ctx.waitForEvent('page');
    const replies = await browser.sw.evaluate(
      async ({ pageUrl, origin }) => {
        const [tab] = await chrome.tabs.query({ url: pageUrl });
        const [injection] = await chrome.scripting.executeScript({
          target: { tabId: tab.id },
          world: 'ISOLATED',
          func: (o: string) =>
            Promise.all(
              [1, 2, 3, 4, 5].map(
                (n) =>
                  new Promise((resolve) =>
                    chrome.runtime.sendMessage(
                      {
                        id: n,
                        type: 'openPayment',
                        data: { requestUrl: `${o}/forged/${n}` },
                        timestamp: Date.now(),
                      },
                      () => resolve(chrome.runtime.lastError?.message ?? 'answered'),
                    ),
                  ),
              ),
            ),
          args: [origin],
        });
        return injection.result;
      },
      { pageUrl: url, origin: attacker.origin },
    );
    expect(replies).toHaveLength(5);
    // Every message has been handled (each was answered). The one tab shows the request's address
    // and waits for the person; once it has loaded (a new tab's address is pending until then),
    // it is the only one.
    const payment = await opened;
    await payment.locator('#private-host, #confirm').first().waitFor();
    expect(await paymentTabs()).toBe(before + 1);
    expect(await browser.sw.evaluate(async () => (await chrome.tabs.query({})).length)).toBe(tabsBefore + 1);
    expect(await payment.locator('#private-host, #confirm').first().textContent()).toMatch(/\/forged\/[1-5]/);
    expect(attacker.seenAt('/forged/')).toEqual([]);
    await payment.close();
    await page.close();
  });
});

describe('the payment page opened by address', () => {
  beforeAll(() =>
    allowPaymentOrigins(
      (items) => browser.sw.evaluate((i) => chrome.storage.local.set(i), items),
      attacker.origin,
    ),
  );

  it('?r= shows the request address and fetches only when the person asks', async () => {
    const q = new URLSearchParams({ r: `${attacker.origin}/direct-r`, page: `${attacker.origin}/shop` });
    const page = await browser.open(`payment.html?${q}`);
    await page.locator('#confirm').waitFor();
    expect(await page.locator('#confirm').textContent()).toContain(`${attacker.origin}/direct-r`);
    expect(attacker.seenAt('/direct-r')).toEqual([]);
    await page.getByRole('button', { name: 'Fetch payment request' }).click();
    await expect.poll(() => attacker.seenAt('/direct-r').length).toBe(1);
    await page.locator('#error').waitFor();
    await page.close();
  });

  it('?uri= (the Firefox bitcoin: handler) too', async () => {
    const page = await browser.open(`payment.html?uri=${encodeURIComponent(bip72('/direct-uri'))}`);
    await page.locator('#confirm').waitFor();
    expect(attacker.seenAt('/direct-uri')).toEqual([]);
    await page.click('#fetch-request');
    await expect.poll(() => attacker.seenAt('/direct-uri').length).toBe(1);
    await page.close();
  });

  it('?open= with an id the background never gave out says so and fetches nothing', async () => {
    const page = await browser.open(`payment.html?open=${crypto.randomUUID()}`);
    await page.locator('#error').waitFor();
    expect(await page.locator('#error').textContent()).toMatch(/no longer|already/);
    expect(await page.locator('#confirm, #verdict, #loading').count()).toBe(0);
    await page.close();
  });
});

describe('a page flooding itself with payment links', () => {
  it('adding 100,000 in bursts: the badge says 999+, after at most a few updates, and nothing is fetched', async () => {
    // Count the content script's badge reports as the background receives them.
    await browser.sw.evaluate(() => {
      const g = globalThis as any;
      g.linkReports = [];
      chrome.runtime.onMessage.addListener((m: any, sender: any) => {
        if (m?.type === 'paymentLinksFound') g.linkReports.push({ tabId: sender.tab?.id, data: m.data });
      });
    });
    const url = attacker.page(
      '/flood.html',
      `<!doctype html><title>flood</title><body>
<a id="first" href="${bip72('/flood/first')}">Invoice</a>
<script>
  let added = 0;
  function burst() {
    // Half the bursts add 1,000 links one by one, half add them inside one container.
    const holder = added % 2000 ? document.createElement('div') : document.createDocumentFragment();
    for (let i = 0; i < 1000; i++) {
      const a = document.createElement('a');
      a.href = 'bitcoin:?r=' + encodeURIComponent(location.origin + '/flood/' + (added + i));
      a.textContent = 'Invoice ' + (added + i);
      holder.appendChild(a);
    }
    document.body.appendChild(holder);
    added += 1000;
    if (added < 100000) setTimeout(burst, 0);
    else document.body.dataset.done = 'yes';
  }
</script></body>`,
    );
    const page = await browser.ctx.newPage();
    await page.goto(url);
    // Once the extension has read the page (its badge counts the first link), flood it.
    await expect.poll(() => badgeOf(url)).toBe('1');
    await page.evaluate(() => (window as any).burst());
    await page.locator('body[data-done="yes"]').waitFor({ timeout: 60_000 });
    await expect.poll(() => badgeOf(url), { timeout: 30_000 }).toBe('999+');
    const tabId = await browser.sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0].id, url);
    const reports = await browser.sw.evaluate(
      (id) => (globalThis as any).linkReports.filter((r: any) => r.tabId === id),
      tabId,
    );
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.length).toBeLessThanOrEqual(REPORTS_CAP);
    // It examined exactly as many links as it may, all of them payment links, and then stopped.
    expect(reports.at(-1).data).toEqual({ found: 999, capped: true });
    expect(attacker.seenAt('/flood/')).toEqual([]);
    await page.close();
  });
});
