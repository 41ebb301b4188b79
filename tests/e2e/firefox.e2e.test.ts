// The upload flows in real headless Firefox (firefox-esr), driven over Marionette: the servers are
// on 127.0.0.2, which the manifest does not grant, so the permission prompt is part of the run.
// The options test comes first: the server it saves (and the access it is granted) is the one the
// other tests upload to.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../recipient/stored-bytes';
import { findInRecorded } from '../server/server';
import { startTestServer, type TestServer } from '../server/test-helpers';
import { decipherFor, openLink } from './checks';
import { type FirefoxExtension, type FirefoxPage, launchFirefox, until } from './firefox-harness';
import { countUploads, UNGRANTED_HOST as HOST } from './harness';
import { type Site, startSite } from './pages';

const DONE_LINK = '.job[data-state="done"] input[id^="link-"]';

let fx: FirefoxExtension;
let ref: TestServer;
let site: Site;

beforeAll(async () => {
  ref = await startTestServer({ record: true, host: HOST });
  site = await startSite(readFileSync('public/icon/128.png'), HOST);
  fx = await launchFirefox();
});

afterAll(async () => {
  await fx?.close();
  await ref?.stop();
  await site?.close();
});

async function fillServer(page: FirefoxPage, server: TestServer['server'], variant: 'legacy' | 'current') {
  await page.fill('#baseUrl', server.baseUrl);
  await page.fill('#apiUrl', server.apiUrl);
  await page.fill('#uploadUrl', server.uploadUrl);
  await page.selectOption('#variant', variant);
}

/** Uploads one file through the upload page with the given choices; returns its link. */
async function uploadThroughPage(
  name: string,
  buffer: Buffer,
  choose?: (page: FirefoxPage) => Promise<void>,
): Promise<string> {
  const page = await fx.open('upload.html');
  try {
    await choose?.(page);
    await page.setInputFiles('#file', { name, buffer });
    await page.click('#upload');
    await page.waitFor(DONE_LINK);
    return await page.inputValue(DONE_LINK);
  } finally {
    await page.close();
  }
}

async function sessionJobs(): Promise<any[]> {
  return Object.values(
    (await fx.extension(() => (globalThis as any).browser.storage.session.get('jobs'))).jobs ?? {},
  );
}

async function finishedJob(predicate: (j: any) => boolean): Promise<any> {
  return until(async () => {
    const job = (await sessionJobs()).find(predicate);
    return job && job.state !== 'running' ? job : undefined;
  }, 'the job to end');
}

describe('options: a server the manifest does not grant', () => {
  it('asks Firefox for it: declined says so, accepted tests and saves', async () => {
    const page = await fx.open('options.html');
    await page.waitFor('#baseUrl');
    await page.fill('#name', 'Loopback two');
    await fillServer(page, ref.server, 'current');

    await page.click('#test');
    const asked = await fx.answerPermissionPrompt(false);
    expect(asked).toContain(HOST);
    await until(async () => /not allowed/.test(await page.text('#test ~ p')) || undefined, 'the refusal');

    await page.click('#test');
    await fx.answerPermissionPrompt(true);
    await until(
      async () => /Connection works/.test(await page.text('#test ~ p')) || undefined,
      'the connection test',
    );
    await page.click('#save');
    await until(async () => (await page.text('#save ~ p')) === 'Saved.' || undefined, 'Saved.');
    await page.screenshot('options');
    await page.close();
  });
});

describe('upload page: each mode, both variants', () => {
  const profileVariant = async (page: FirefoxPage, variant: 'legacy' | 'current') => {
    await page.waitFor('#variant');
    await page.selectOption('#variant', variant);
  };

  for (const variant of ['current', 'legacy'] as const) {
    it(`client mode, ${variant}: the ciphertext decrypts to the original and the key never reached the server`, async () => {
      const original = randomBytes(2 * 1024 * 1024 + 3);
      const before = ref.server.requests.length;
      const link = await uploadThroughPage(`client-${variant}.bin`, original, (p) =>
        profileVariant(p, variant),
      );
      const [url, key] = link.split('#') as [string, string];
      expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
      if (variant === 'legacy') expect(url).toContain('?sub=u');
      const cipher = Buffer.from((await storedBytes(url)).bytes);
      expect(cipher.length).toBe(original.length);
      expect(cipher.equals(original)).toBe(false);
      const d = decipherFor(key);
      expect(Buffer.concat([d.update(cipher), d.final()]).equals(original)).toBe(true);
      expect(ref.server.requests.length).toBeGreaterThan(before);
      for (const needle of [key, Buffer.from(key).toString('hex'), Buffer.from(key).toString('base64')])
        expect(findInRecorded(ref.server, new Uint8Array(Buffer.from(needle)))).toEqual([]);
      // Do-not-track is on (the default): Firefox's declarativeNetRequest rule put DNT: 1 on the wire.
      const name = new URL(url).pathname.split('/').pop()!;
      expect(ref.server.stored(name)?.dntHeader).toBe(true);
    });

    it(`server mode, ${variant}: a kept key gives a plain link, an unkept one a link with the server's key`, async () => {
      const original = randomBytes(100_000);
      const kept = await uploadThroughPage(`server-kept-${variant}.bin`, original, async (p) => {
        await profileVariant(p, variant);
        await p.check({ label: 'Let the server encrypt' });
        await p.check({ label: /Server keeps the key/ });
      });
      expect(kept).not.toContain('#');
      expect(Buffer.from(await (await fetch(kept)).arrayBuffer()).equals(original)).toBe(true);

      const unkept = await uploadThroughPage(`server-unkept-${variant}.bin`, original, async (p) => {
        await profileVariant(p, variant);
        await p.check({ label: 'Let the server encrypt' });
        await p.uncheck({ label: /Server keeps the key/ });
      });
      expect(unkept).toMatch(/#[A-Za-z0-9]{32}$/);
      const stored = ref.server.stored(new URL(unkept.split('#')[0]!).pathname.split('/').pop()!)!;
      expect(stored.saved).toBe(false);
    });

    it(`no encryption, ${variant}: the server holds the file as it is`, async () => {
      const original = randomBytes(50_000);
      const link = await uploadThroughPage(`plain-${variant}.bin`, original, async (p) => {
        await profileVariant(p, variant);
        await p.check({ label: 'No encryption' });
      });
      expect(link).not.toContain('#');
      expect(Buffer.from(await (await fetch(link)).arrayBuffer()).equals(original)).toBe(true);
    });
  }

  it('a server failure gives a clear sentence, and Try again works', async () => {
    const page = await fx.open('upload.html');
    ref.server.setFault('html-500');
    try {
      await page.setInputFiles('#file', { name: 'fail.bin', buffer: randomBytes(10_000) });
      await page.click('#upload');
      const alert = '.job[data-state="failed"] [role="alert"] .error';
      await page.waitFor(alert);
      expect(await page.text(alert)).toMatch(/500|server/i);
    } finally {
      ref.server.setFault(null);
    }
    await page.click('.job[data-state="failed"] button.retry');
    await page.waitFor(DONE_LINK);
    await page.close();
  });

  it('Cancel stops an upload: it says so and nothing enters the history', async () => {
    const page = await fx.open('upload.html');
    const uploadsBefore = await page.evaluate(countUploads);
    // The server holds the request unanswered, so the upload is surely running when Cancel is clicked.
    ref.server.setFault('stall', { once: true });
    await page.setInputFiles('#file', { name: 'cancel-me.bin', buffer: randomBytes(1024 * 1024) });
    await page.click('#upload');
    await page.click({ css: '.job[data-state="running"] button', hasText: 'Cancel' });
    // A loaded machine may cancel before the request reaches the server: the stall must not wait for
    // the next test's upload.
    ref.server.setFault(null);
    await page.waitFor('.job[data-state="cancelled"]');
    expect(await page.text('.job[data-state="cancelled"] .error')).toMatch(/cancel/i);
    expect(await page.count('.job[data-state="done"]')).toBe(0);
    expect(await page.evaluate(countUploads)).toBe(uploadsBefore);
    await page.close();
  });
});

describe('popup (opened as a tab)', () => {
  it('uploads a dropped file in the background; the link is copied and a notification says so', async () => {
    const page = await fx.open('popup.html');
    await page.waitFor('.drop');
    const content = randomBytes(200_000).toString('base64');
    // A drop rather than the Chromium suite's paste: Firefox's ClipboardEvent constructor keeps
    // only text, and its headless clipboard holds no files, so a test cannot paste a file there.
    await page.evaluate((text: string) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'pasted.txt', { type: 'text/plain' }));
      const drop = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
      document.querySelector('.drop')!.dispatchEvent(drop);
    }, content);
    const job = await finishedJob((j) => j.name === 'pasted.txt');
    expect(job.state, job.error).toBe('done');
    const link = { css: '.job-link', within: { css: '.job[data-state="done"]', hasText: 'pasted.txt' } };
    await page.waitFor(link);
    const value = await page.inputValue(link);
    expect((await openLink(value)).toString()).toBe(content);
    await until(async () => ((await fx.clipboardText()) === value ? true : undefined), 'the copied link');
    const notes = await until(async () => {
      const all = await fx.notifications();
      return all.some((n) => n.title === 'Uploaded pasted.txt') ? all : undefined;
    }, 'the notification');
    // The notification names the file and the host, never the link (its key).
    const note = notes.find((n) => n.title === 'Uploaded pasted.txt')!.text;
    expect(note).toContain(new URL(value).host);
    expect(note).not.toContain(value.split('#')[1]!);
    await page.screenshot('popup');
    await page.close();
  });
  it('Cancel in the popup stops the background job', async () => {
    const page = await fx.open('popup.html');
    await page.waitFor('.drop');
    // The server holds the request unanswered, so the job is surely running when Cancel is clicked.
    ref.server.setFault('stall', { once: true });
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(512 * 1024)], 'cancel-popup.bin'));
      const drop = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
      document.querySelector('.drop')!.dispatchEvent(drop);
    });
    const job = { css: '.job', hasText: 'cancel-popup.bin' };
    await page.click({ css: 'button', hasText: 'Cancel', within: job });
    ref.server.setFault(null);
    await page.waitFor({ css: '.job[data-state="cancelled"]', hasText: 'cancel-popup.bin' });
    expect(await page.text({ css: '[role="alert"]', within: job })).toMatch(/cancelled/);
    await page.close();
  });
});

describe('right-click upload, through Firefox’s own context menu', () => {
  it('uploads an image, copies the link and notifies', async () => {
    const page = await fx.openUrl(`${site.origin}/`);
    await page.waitFor('#img');
    await page.rightClick('#img');
    await fx.chooseMenuItem('Upload with Hushdrop');
    const job = await finishedJob((j) => j.name === 'cat.png');
    expect(job.state, job.error).toBe('done');
    expect((await openLink(job.link)).equals(site.image)).toBe(true);
    await until(async () => ((await fx.clipboardText()) === job.link ? true : undefined), 'the copied link');
    await until(
      async () => ((await fx.notifications()).some((n) => n.title === 'Uploaded cat.png') ? true : undefined),
      'the notification',
    );
    await page.close();
  });

  it('uploads a blob: image, fetched inside the page', async () => {
    const page = await fx.openUrl(`${site.origin}/blob.html`);
    await until(async () => (await page.attribute('#img', 'src'))?.startsWith('blob:') || undefined, 'blob');
    const before = (await sessionJobs()).length;
    await page.rightClick('#img');
    await fx.chooseMenuItem('Upload with Hushdrop');
    await until(async () => ((await sessionJobs()).length > before ? true : undefined), 'a new job');
    const job = await finishedJob((j) => j.name.startsWith('upload-') && j.name.endsWith('.png'));
    expect(job.state, job.error).toBe('done');
    expect((await openLink(job.link)).equals(site.image)).toBe(true);
    await page.close();
  });

  it('a linked file on a site not granted yet: Firefox asks for that site at the click, then it is uploaded', async () => {
    const elsewhere = await startSite(randomBytes(30_000), '127.0.0.3');
    try {
      const page = await fx.openUrl(
        `${site.origin}/link?to=${encodeURIComponent(`${elsewhere.origin}/cat.png`)}`,
      );
      const before = new Set((await sessionJobs()).map((j) => j.id));
      await page.rightClick('#link');
      await fx.chooseMenuItem('Upload linked file with Hushdrop');
      expect(await fx.answerPermissionPrompt(true)).toContain('127.0.0.3');
      const job = await finishedJob((j) => !before.has(j.id));
      expect(job.state, job.error).toBe('done');
      expect((await openLink(job.link)).equals(elsewhere.image)).toBe(true);
      await page.close();
    } finally {
      await elsewhere.close();
    }
  });

  it('uploads selected text', async () => {
    const page = await fx.openUrl(`${site.origin}/`);
    await page.evaluate(() => window.getSelection()!.selectAllChildren(document.getElementById('note')!));
    await page.rightClick('#note');
    await fx.chooseMenuItem('Upload selected text with Hushdrop');
    const job = await finishedJob((j) => j.name.startsWith('selection-'));
    expect(job.state, job.error).toBe('done');
    expect((await openLink(job.link)).toString()).toBe('A cat, and a note about it.');
    await page.close();
  });
});

describe('uploads list and viewer', () => {
  let original: Buffer;
  let link: string;

  it('Open shows the upload in the viewer, which saves the original', async () => {
    original = randomBytes(3 * 1024 * 1024 + 5);
    link = await uploadThroughPage('photo.bin', original);
    const list = await fx.open('uploads.html');
    const row = { css: 'tbody tr', hasText: 'photo.bin' };
    await list.waitFor(row);
    const viewer = await fx.waitForNewPage(() =>
      list.click({ css: 'button', hasText: /^Open$/, within: row }),
    );
    await viewer.waitFor('#save');
    expect(await viewer.text('#check')).toMatch(/exactly the file you uploaded/);
    const saved = await fx.download(() => viewer.click('#save'));
    expect(saved.fileName).toBe('photo.bin');
    expect(readFileSync(saved.path).equals(original)).toBe(true);
    await viewer.screenshot('viewer');
    await viewer.close();
    await list.close();
  });

  it('the viewer opens a pasted link', async () => {
    const viewer = await fx.open('viewer.html');
    await viewer.fill('#link', link);
    await viewer.click('#open');
    await viewer.waitFor('#save');
    const saved = await fx.download(() => viewer.click('#save'));
    expect(readFileSync(saved.path).equals(original)).toBe(true);
    await viewer.close();
  });

  it('export, clear and import give the same entries; Delete on server removes the file', async () => {
    const page = await fx.open('uploads.html');
    await page.waitFor('tbody tr');
    const ids = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-id')).sort(),
      );
    const before = await ids();
    expect(before.length).toBeGreaterThan(0);
    const exported = await fx.download(() => page.click('#export'));
    await page.click('#clear');
    await page.click('#clear-confirm');
    await until(async () => ((await page.count('tbody tr')) === 0 ? true : undefined), 'an empty list');
    await page.setInputFiles('#import', exported.path);
    await until(
      async () => ((await page.count('tbody tr')) === before.length ? true : undefined),
      'the import',
    );
    expect(await ids()).toEqual(before);
    await page.screenshot('uploads');

    const fileName = new URL(link.split('#')[0]!).pathname.split('/').pop()!;
    expect(ref.server.stored(fileName)).toBeDefined();
    const row = { css: 'tbody tr', hasText: 'photo.bin' };
    await page.click({ css: 'button', hasText: 'Delete on server', within: row });
    await page.click({ css: 'button', hasText: 'Yes, delete it', within: row });
    await until(
      async () => (/deleted from the server/.test(await page.text('[role="status"]')) ? true : undefined),
      'the deletion',
    );
    expect(ref.server.stored(fileName)).toBeUndefined();
    await page.close();
  });
});
