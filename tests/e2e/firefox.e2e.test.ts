// Firefox smoke test: the Firefox build installs in headless firefox-esr and its content script
// runs (it marks the payment-request link on a loopback page). Firefox extension pages cannot
// be driven from outside, so behaviour is tested in Chromium; this proves the build is alive.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';

const EXT = resolve('.output/firefox-mv2');
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

const page = `<!doctype html><title>shop</title>
<a id="plain" href="https://example.org/">plain</a>
<a id="pay" href="bitcoin:?r=https%3A%2F%2Fmerchant.example%2Finvoice.bitcoinpaymentrequest">Pay</a>`;

const server = createServer((_, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html' });
  res.end(page);
});
let browser: Browser;
let origin: string;

beforeAll(async () => {
  if (!existsSync(`${EXT}/manifest.json`))
    throw new Error(`No Firefox build at ${EXT}: run \`npm run build:firefox\`.`);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: { 'extensions.webextensions.remote': true },
  });
});

afterAll(async () => {
  await browser?.close();
  server.close();
});

it('installs in Firefox and its content script marks a payment link', async () => {
  const id = await browser.installExtension(EXT);
  expect(id).toBe('hushdrop@hushdrop.invalid');
  const tab = await browser.newPage();
  await tab.goto(`${origin}/`);
  await tab.waitForSelector('#pay[data-hushdrop="payment-request"]', { timeout: 20_000 });
  expect(await tab.$eval('#plain', (a) => a.getAttribute('data-hushdrop'))).toBeNull();
});
