// Where the key of an upload in parts lands while it could be resumed (issue 33): from Start until the
// upload ends, the upload page keeps what a resume after a reload needs, the key among it, in the
// extension's session storage. That must be memory only. An upload is held mid-way (a part unanswered
// at a front, support/parts-front.ts), the page is reloaded so that it offers the upload, session
// restore saves the tab, and the browser is closed on a kept profile: no file of the profile holds the
// key, in any of its forms, or the record. Chromium only: it searches a Chromium profile's files.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { base64urlnopad } from '@scure/base';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../../../devkit/wait';
import { startTestServer, type TestServer } from '../../testkit/server';
import { type PartsFront, startPartsFront } from '../support/parts-front';
import { type ExtensionBrowser, launchExtension, serverSettings } from './harness';
import { sessionSaved, whereFound } from './profile-files';

declare const chrome: any;

const MIB = 1024 * 1024;
let browser: ExtensionBrowser | undefined;
let ref: TestServer;
let front: PartsFront;
const profiles: string[] = [];

beforeAll(async () => {
  ref = await startTestServer({
    settings: { parts: { partBytes: 5 * MIB, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 0 } },
  });
  front = await startPartsFront(ref.server, '127.0.0.1');
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  await front?.close();
  await ref?.stop();
  for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
});

/** The resume records in the extension's session storage, as stored. */
const sessionRecords = (b: ExtensionBrowser): Promise<{ record: string }[]> =>
  b.sw.evaluate(async () =>
    Object.entries(await chrome.storage.session.get(null))
      .filter(([key]) => key.startsWith('resume.'))
      .map(([, value]) => value as { record: string }),
  );

for (const format of ['ece', 'teknik'] as const)
  it(`an upload in parts held mid-way and its page reloaded leaves its key (${format}) nowhere on the profile’s disk`, async () => {
    const b = await launchExtension();
    browser = b;
    const { profileDir } = b;
    profiles.push(profileDir);
    const settings = serverSettings(front.addresses, 'current');
    settings.profiles[0]!.defaults.format = format;
    await b.setSettings(settings);
    const page = await b.open('upload.html');
    front.holdPart = 1;
    await page.locator('#file').setInputFiles({
      name: `gehalten-${format}.bin`,
      mimeType: 'application/octet-stream',
      buffer: randomBytes(12 * MIB),
    });
    await until(async () => (front.held ? true : undefined), 'part 1 held at the front', 120_000);
    const [stored] = await until(async () => {
      const records = await sessionRecords(b);
      return records.length === 1 ? records : undefined;
    }, 'the resume record in session storage');
    const record = JSON.parse(stored!.record) as { secret?: string; key?: string };
    const needles = format === 'ece' ? [record.secret!] : [record.key!];
    const raw = format === 'ece' ? [Buffer.from(base64urlnopad.decode(record.secret!))] : [];
    expect(needles[0]).toBeTruthy();

    // The reloaded page offers the upload: what it kept outlived the reload.
    const reloaded = Date.now();
    await page.reload();
    front.releaseHeld();
    await page.locator('#interrupted > li').waitFor();
    await sessionSaved(profileDir, reloaded);
    expect(await sessionRecords(b)).toHaveLength(1);

    await b.close({ keepProfile: true });
    browser = undefined;
    expect(
      whereFound(profileDir, [...needles, stored!.record], raw),
      'the key or its record on disk',
    ).toEqual([]);
    // The search finds what is there: the profile's settings hold the server's address.
    expect(whereFound(profileDir, [front.addresses.apiUrl]).length).toBeGreaterThan(0);
  });
