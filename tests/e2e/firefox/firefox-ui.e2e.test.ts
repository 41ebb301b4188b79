// Firefox only: Firefox's own permission doorhanger, declined and accepted, and its dialog for a
// link of a scheme an extension handles, answered here for real. Chromium's permission prompt is
// a native dialog no automation reaches (its scenarios hold the hosts from launch instead), a
// right-click there cannot ask for a site at the click, and Chromium gives plain bitcoin: links to
// the system's wallet rather than to an extension. For the same reason only Firefox has a granted
// site to revoke in the options (Chromium's scenarios hold theirs in the manifest, which cannot be revoked).
// The options scenario comes first: the server it saves (and the access it is granted) is the one
// the right-click one uploads to.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLink } from '../../../devkit/links';
import { until } from '../../../devkit/wait';
import { describeScript } from '../../../lib/payments/addresses';
import { type Merchant, PAY_TO_SCRIPT, startMerchant } from '../../merchant/server';
import { launchDriver } from '../driver/each-browser';
import type { FirefoxDriver } from '../driver/firefox';
import { UNGRANTED_HOST as HOST, OTHER_HOST } from '../support/hosts';
import { fillServer, testAndSave } from '../support/options';
import { serverForFile } from '../support/servers';
import { type Site, startSite } from '../support/site';
import { endedJob } from '../support/uploads';

const PAY_TO = describeScript(PAY_TO_SCRIPT, 'main').address!;

const ref = serverForFile({ record: true, host: HOST });
let d: FirefoxDriver;
let site: Site;
let merchant: Merchant;

beforeAll(async () => {
  site = await startSite(readFileSync('public/icon/128.png'), HOST);
  merchant = await startMerchant({ host: HOST });
  d = await launchDriver('firefox');
});

afterAll(async () => {
  await d?.close();
  await site?.close();
  await merchant?.close();
});

describe('options: a server the manifest does not grant', () => {
  it('asks Firefox for it: declined says so, accepted tests and saves', async () => {
    const page = await d.open('options.html');
    await page.waitFor('#name');
    await page.fill('#name', 'Loopback two');
    await fillServer(page, ref.server, 'current');

    await page.click('#test');
    await d.permissionPrompt(HOST, 'deny');
    await until(async () => /not allowed/.test(await page.text('#test ~ p')) || undefined, 'the refusal');

    await testAndSave(d, page, HOST);
    await page.close();
  });
});

describe('right-click upload, through Firefox’s own context menu', () => {
  it('a linked file on a site not granted yet: Firefox asks for that site at the click, then it is uploaded', async () => {
    const elsewhere = await startSite(randomBytes(30_000), OTHER_HOST);
    try {
      const page = await d.openUrl(
        `${site.origin}/link?to=${encodeURIComponent(`${elsewhere.origin}/cat.png`)}`,
      );
      const before = new Set((await d.jobs()).map((j) => j.id));
      await d.contextMenu(page, '#link', 'link');
      await d.permissionPrompt(OTHER_HOST, 'allow');
      const job = await endedJob(d, (j) => !before.has(j.id));
      expect(job.state, job.error).toBe('done');
      expect((await openLink(job.link!)).equals(elsewhere.image)).toBe(true);
      await page.close();
    } finally {
      await elsewhere.close();
    }
  });
});

describe('options: the sites Hushdrop may reach', () => {
  it('lists the site allowed at the right-click, and Revoke takes its permission back', async () => {
    const page = await d.open('options.html');
    const row = { css: '.granted-sites li', hasText: OTHER_HOST };
    await page.waitFor(row);
    const granted = () =>
      page.evaluate(
        (origin) => (globalThis as any).browser.permissions.contains({ origins: [origin] }),
        `http://${OTHER_HOST}/*`,
      );
    expect(await granted()).toBe(true);
    await page.click({ css: 'button', hasText: 'Revoke', within: row });
    await until(async () => (await page.count(row)) === 0 || undefined, 'the site to leave the list');
    expect(await page.text('#sites [role="status"]')).toBe(`Hushdrop may no longer reach ${OTHER_HOST}.`);
    expect(await granted()).toBe(false);
    await page.close();
  });
});

describe('the bitcoin: protocol handler', () => {
  it('a bitcoin: link the content script leaves alone opens the payment page after Firefox asks which application to use', async () => {
    const shop = await d.openUrl(merchant.pageUrl);
    // A person's click goes to the content script now (plain links are read on the page); a
    // scripted click is left to the page, so the navigation reaches Firefox's own handler, as a
    // bitcoin: link opened from anywhere else does.
    await shop.evaluate(() => (document.getElementById('plain-bip21') as HTMLAnchorElement).click());
    expect(await d.answerLinkHandlerDialog()).toMatch(/open the bitcoin link with Hushdrop/);
    await shop.waitFor('#verdict[data-kind="bip21"]');
    expect(await shop.url()).toContain('/payment.html?uri=bitcoin');
    expect(await shop.text('#total')).toBe('0.0015 BTC (150,000 sat)');
    expect(await shop.attribute('#wallet-link', 'href')).toBe(`bitcoin:${PAY_TO}?amount=0.0015`);
    await shop.close();
  });
});
