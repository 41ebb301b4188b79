import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/test-helpers';
import { openLink } from './checks';
import { type FirefoxExtension, launchFirefox } from './firefox-harness';
import { serverSettings } from './harness';

let fx: FirefoxExtension;
let ref: TestServer;

beforeAll(async () => {
  ref = await startTestServer({ record: true });
  fx = await launchFirefox();
  await fx.setSettings(serverSettings(ref.server, 'current'));
});

afterAll(async () => {
  await fx?.close();
  await ref?.stop();
});

it('uploads through the upload page', async () => {
  const original = randomBytes(100_000);
  const page = await fx.open('upload.html');
  await page.setInputFiles('#file', { name: 'a.bin', buffer: original });
  await page.click('#upload');
  const field = '.job[data-state="done"] input[id^="link-"]';
  await page.waitFor(field);
  const link = await page.inputValue(field);
  expect((await openLink(link)).equals(original)).toBe(true);
  await page.screenshot('upload');
  await page.close();
});
