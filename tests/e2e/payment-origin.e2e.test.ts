// Payment traffic stays on the request's own origin, in both browsers (issue 17, finding 1). A
// request on a loopback port is shown and not fetched until the person allows that origin on the
// payment page (the manifest's loopback grant does not count), and the page remembers it; a
// request whose server answers with a 307 to another origin is refused with a sentence, and the
// other origin receives nothing. The servers are two hostile loopback sites that record every
// request they get.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { forEachBrowser } from './driver/each-browser';
import { type Attacker, startAttacker } from './support/attacker';
import { screenshotAndAxe } from './support/axe';
import { allowOnPaymentPage } from './support/payment-origins';

let local: Attacker;
let other: Attacker;

beforeAll(async () => {
  local = await startAttacker();
  other = await startAttacker();
});

afterAll(async () => {
  await local?.close();
  await other?.close();
});

forEachBrowser({}, (d) => {
  beforeAll(() => d.setStorage({ paymentPrivateOrigins: [] }));

  describe('a payment request on this machine', () => {
    it('is shown and not fetched until the person allows its origin, which is then remembered', async () => {
      const path = `/local-${d.name}`;
      const q = new URLSearchParams({ r: `${local.origin}${path}/1` });
      const page = await d.open(`payment.html?${q}`);
      await page.waitFor('#private-host');
      expect(await page.text('#private-host')).toContain(`${local.origin}${path}/1`);
      expect(await page.text('#private-h')).toContain(new URL(local.origin).host);
      expect(await page.count('#fetch-request, #loading, #verdict')).toBe(0);
      // The page asked nothing of the server, not even in the background.
      expect(local.seenAt(path)).toEqual([]);
      await screenshotAndAxe(page, `payment-private-${d.name}`);

      await allowOnPaymentPage(page);
      await until(async () => (local.seenAt(`${path}/1`).length === 1 ? true : undefined), 'one fetch');
      // The attacker answers text/plain, which is no payment request: the page says so.
      await page.waitFor('#error');
      await page.close();

      // The origin is remembered: the next request there waits only for the usual button.
      const again = await d.open(`payment.html?${new URLSearchParams({ r: `${local.origin}${path}/2` })}`);
      await again.waitFor('#confirm');
      expect(local.seenAt(`${path}/2`)).toEqual([]);
      await again.click('#fetch-request');
      await until(
        async () => (local.seenAt(`${path}/2`).length === 1 ? true : undefined),
        'the second fetch',
      );
      await again.close();
    });
  });

  describe('the options page', () => {
    it('lists an allowed address, and Revoke makes the payment page wait for the person again', async () => {
      const origin = local.origin;
      await d.setStorage({ paymentPrivateOrigins: [origin] });
      const options = await d.open('options.html');
      const row = { css: '#payment-origins li', hasText: new URL(origin).host };
      await options.waitFor(row);
      await screenshotAndAxe(options, `options-payment-origins-${d.name}`);
      await options.click({ css: 'button', hasText: 'Revoke', within: row });
      await until(async () => (await options.count(row)) === 0 || undefined, 'the address to leave the list');
      expect(await options.text('#payment-origins [role="status"]')).toBe(
        `The payment page will wait for you again before it contacts ${origin}.`,
      );
      expect(await d.getStorage('paymentPrivateOrigins')).toEqual([]);
      await options.close();

      const path = `/revoked-${d.name}`;
      const page = await d.open(`payment.html?${new URLSearchParams({ r: `${origin}${path}` })}`);
      await page.waitFor('#private-host');
      expect(await page.count('#fetch-request, #loading, #verdict')).toBe(0);
      expect(local.seenAt(path)).toEqual([]);
      await page.close();
    });
  });

  describe('a redirect to another origin', () => {
    it('is refused with a sentence naming the request’s origin; the other origin receives nothing', async () => {
      const path = `/elsewhere-${d.name}`;
      const request = local.redirect(`/moved-${d.name}`, `${other.origin}${path}`);
      const page = await d.open(`payment.html?${new URLSearchParams({ r: request })}`);
      // Allowed for this origin (from the test before, or now).
      await page.waitFor('#private-host, #confirm');
      if ((await page.count('#allow-private')) > 0) await page.click('#allow-private');
      else await page.click('#fetch-request');
      await page.waitFor('#error');
      expect(await page.text('#error')).toContain(`${local.origin} answered with a redirect`);
      expect(local.seenAt(`/moved-${d.name}`)).toHaveLength(1);
      expect(other.seen).toEqual([]);
      // No "Try again": the same request would be refused the same way.
      expect(await page.count('#retry')).toBe(0);
      await page.close();
    });
  });
});
