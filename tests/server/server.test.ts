import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../../devkit/stored-bytes';
import {
  bytesOf,
  clientModeForm,
  currentUploadUrl,
  form,
  getBytes,
  heldBeforeStoring,
  legacyUploadUrl,
  post,
  randomBytesOf,
  startTestServer,
  storedFiles,
  type TestServer,
  teknikCtr,
} from './test-helpers';

const KEY_RE = /^[A-Za-z0-9]{32}$/;
const IV_RE = /^[A-Za-z0-9]{16}$/;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    accounts: [
      { username: 'alice', token: 'a'.repeat(96) },
      { username: 'jörg', token: 'tøken' },
    ],
  });
});
afterAll(async () => {
  await t.stop();
});

const plain = bytesOf('Hello, reference server! '.repeat(40));

describe('legacy variant', () => {
  it('answers with every member, in order, and serves the file at both addresses', async () => {
    const { server } = t;
    const res = await post(
      legacyUploadUrl(server),
      form({ file: { bytes: plain, name: 'note.txt', type: 'text/plain' } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const r = res.json.result;
    expect(Object.keys(r)).toEqual([
      'url',
      'fileName',
      'contentType',
      'contentLength',
      'key',
      'keySize',
      'iv',
      'blockSize',
      'maxDownloads',
      'expirationDate',
      'deletionKey',
    ]);
    expect(r.fileName).toMatch(/^[A-Za-z0-9]{5}\.txt$/);
    expect(r.url).toBe(`${server.baseUrl}/${r.fileName}?sub=u`);
    expect(r).toMatchObject({
      contentType: 'text/plain',
      contentLength: plain.length,
      keySize: 256,
      blockSize: 128,
      maxDownloads: 0,
      expirationDate: null,
      deletionKey: '',
    });
    // Defaults: encrypt=true, saveKey=true.
    expect(r.key).toMatch(KEY_RE);
    expect(r.iv).toMatch(IV_RE);
    const stored = (await server.stored(r.fileName))!;
    expect(stored).toMatchObject({
      variant: 'legacy',
      saved: true,
      key: r.key,
      iv: r.iv,
      originalName: 'note.txt',
    });
    const onDisk = new Uint8Array(await stored.bytes());
    expect(onDisk).not.toEqual(plain);
    expect(teknikCtr(r.key, r.iv, onDisk)).toEqual(plain);

    for (const url of [r.url, `${server.uploadUrl}/${r.fileName}`]) {
      const got = await getBytes(url);
      expect(got.status).toBe(200);
      expect(got.bytes).toEqual(plain);
      expect(got.headers.get('content-type')).toBe('text/plain');
      expect(got.headers.get('content-length')).toBe(String(plain.length));
      expect(got.headers.get('content-disposition')).toBe(`inline; filename="${r.fileName}"`);
    }
  });

  it('routes case-insensitively and ignores an Authorization header', async () => {
    const res = await post(
      `${t.server.baseUrl}/V1/upload?sub=API`,
      form({ file: { bytes: plain, name: 'a.txt' } }),
      {
        Authorization: 'Basic d3Jvbmc6d3Jvbmc=',
      },
    );
    expect(res.status).toBe(200);
    expect((await t.server.stored(res.json.result.fileName))?.username).toBeUndefined();
  });
});

describe('current variant', () => {
  it('answers without the expiry members and links under upload_url', async () => {
    const { server } = t;
    const res = await post(
      currentUploadUrl(server),
      form({ encrypt: 'false', saveKey: 'false', file: { bytes: plain, name: 'x.bin' } }),
    );
    const r = res.json.result;
    expect(Object.keys(r)).toEqual([
      'url',
      'fileName',
      'contentType',
      'contentLength',
      'key',
      'keySize',
      'iv',
      'blockSize',
      'deletionKey',
    ]);
    expect(r.url).toBe(`${server.uploadUrl}/${r.fileName}`);
    expect(r.key).toBeNull();
    expect(r.iv).toBeNull();
    expect(await server.stored(r.fileName)).toMatchObject({
      variant: 'current',
      encrypted: false,
      saved: false,
    });
    expect((await getBytes(r.url)).bytes).toEqual(plain);
  });

  it('ignores the expiry fields', async () => {
    const res = await post(
      currentUploadUrl(t.server),
      form({ expirationUnit: 'Views', expirationLength: '1', file: { bytes: plain, name: 'x.bin' } }),
    );
    const name = res.json.result.fileName;
    expect(await t.server.stored(name)).toMatchObject({ maxDownloads: 0, expirationDate: null });
    await getBytes(`${t.server.uploadUrl}/${name}`);
    expect((await getBytes(`${t.server.uploadUrl}/${name}`)).status).toBe(200);
  });

  it('records doNotTrack and the DNT header; the legacy variant ignores the field', async () => {
    const fields = { doNotTrack: 'true', file: { bytes: plain, name: 'x.bin' } };
    const current = await post(currentUploadUrl(t.server), form(fields), { DNT: '1' });
    expect(await t.server.stored(current.json.result.fileName)).toMatchObject({
      doNotTrack: true,
      dntHeader: true,
    });
    const legacy = await post(legacyUploadUrl(t.server), form(fields));
    expect(await t.server.stored(legacy.json.result.fileName)).toMatchObject({
      doNotTrack: false,
      dntHeader: false,
    });
  });
});

describe('encryption modes', () => {
  it('saveKey=false: key only in the fragment and the response; stored ciphertext is served as is', async () => {
    const res = await post(
      legacyUploadUrl(t.server),
      form({ encrypt: 'true', saveKey: 'false', file: { bytes: plain, name: 'a.txt' } }),
    );
    const r = res.json.result;
    expect(r.key).toMatch(KEY_RE);
    expect(r.url).toBe(`${t.server.baseUrl}/${r.fileName}?sub=u#${r.key}`);
    const stored = (await t.server.stored(r.fileName))!;
    expect(stored).toMatchObject({ key: null, saved: false, iv: r.iv, encrypted: true });
    const onDisk = new Uint8Array(await stored.bytes());
    expect(teknikCtr(r.key, r.iv, onDisk)).toEqual(plain);
    expect(await storedBytes(`${t.server.uploadUrl}/${r.fileName}`)).toMatchObject({
      bytes: onDisk,
      viaPage: true,
    });
  });

  it('uses a passed key and IV (known answers for AES-256 and AES-128)', async () => {
    const cases = [
      { key: 'abcdefghijklmnopqrstuvwxyzABCDEF', hex: 'c9af65231f222581ab6229ba35e7' },
      { key: 'abcdefghijklmnop', hex: 'b3c402fb2c0b13716ef5a5aa2a44' },
    ];
    for (const { key, hex } of cases) {
      const res = await post(
        currentUploadUrl(t.server),
        form({ key, iv: '0123456789ABCDEF', file: { bytes: bytesOf('Hello, Teknik!'), name: 'k.txt' } }),
      );
      const r = res.json.result;
      expect(r).toMatchObject({ key, iv: '0123456789ABCDEF' });
      const stored = (await t.server.stored(r.fileName))!;
      expect((await stored.bytes()).toString('hex')).toBe(hex);
      expect(new TextDecoder().decode((await getBytes(r.url)).bytes)).toBe('Hello, Teknik!');
    }
  });

  it('client-style upload (encrypt=false, iv sent, no key) is stored byte for byte', async () => {
    const key = 'abcdefghijklmnopqrstuvwxyzABCDEF';
    const iv = '0123456789ABCDEF';
    const plain = randomBytesOf(100_000, 7);
    const cipher = teknikCtr(key, iv, plain);
    const res = await post(
      legacyUploadUrl(t.server),
      clientModeForm(plain, key, iv, 'photo.png', { genDeletionKey: 'true' }),
    );
    const r = res.json.result;
    expect(r).toMatchObject({ key: null, iv, contentType: 'image/png', contentLength: cipher.length });
    expect(r.url).toBe(`${t.server.baseUrl}/${r.fileName}?sub=u`);
    expect(r.fileName).toMatch(/\.png$/);
    const stored = (await t.server.stored(r.fileName))!;
    expect(stored).toMatchObject({ key: null, iv, saved: false, encrypted: false });
    expect(new Uint8Array(await stored.bytes())).toEqual(cipher);
    // The link opens the recipient page, which names the type; its POST gives the bytes as stored.
    expect((await getBytes(r.url)).headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await storedBytes(r.url)).toMatchObject({ bytes: cipher, viaPage: true });
  });

  it('encrypt=false with a key: saveKey=false puts it in the fragment, saveKey=true decrypts downloads', async () => {
    const key = 'abcdefghijklmnopqrstuvwxyzABCDEF';
    const iv = '0123456789ABCDEF';
    const cipher = teknikCtr(key, iv, plain);
    const kept = await post(
      currentUploadUrl(t.server),
      form({ encrypt: 'false', saveKey: 'true', key, iv, file: { bytes: cipher, name: 'c.bin' } }),
    );
    expect(kept.json.result.url).toBe(`${t.server.uploadUrl}/${kept.json.result.fileName}`);
    expect(await t.server.stored(kept.json.result.fileName)).toMatchObject({ key, saved: true });
    expect((await getBytes(kept.json.result.url)).bytes).toEqual(plain);

    const notKept = await post(
      currentUploadUrl(t.server),
      form({ encrypt: 'false', saveKey: 'false', key, iv, file: { bytes: cipher, name: 'c.bin' } }),
    );
    const r = notKept.json.result;
    expect(r.url).toBe(`${t.server.uploadUrl}/${r.fileName}#${key}`);
    expect(r.key).toBe(key);
    expect(await t.server.stored(r.fileName)).toMatchObject({ key: null, saved: false });
    expect((await storedBytes(`${t.server.uploadUrl}/${r.fileName}`)).bytes).toEqual(cipher);
  });

  it('honours fields that arrive after the file part', async () => {
    const raw = await post(
      currentUploadUrl(t.server),
      form({ file: { bytes: plain, name: 'late.bin' }, encrypt: 'false' }),
    );
    const rawStored = (await t.server.stored(raw.json.result.fileName))!;
    expect(new Uint8Array(await rawStored.bytes())).toEqual(plain);

    const key = 'abcdefghijklmnopqrstuvwxyzABCDEF';
    const iv = '0123456789ABCDEF';
    const keyed = await post(
      currentUploadUrl(t.server),
      form({ file: { bytes: plain, name: 'late.bin' }, key, iv }),
    );
    expect(keyed.json.result).toMatchObject({ key, iv });
    const keyedStored = (await t.server.stored(keyed.json.result.fileName))!;
    expect(new Uint8Array(await keyedStored.bytes())).toEqual(teknikCtr(key, iv, plain));
  });

  it('reports a key the cipher cannot use as an Exception error', async () => {
    const res = await post(
      currentUploadUrl(t.server),
      form({ key: 'short', file: { bytes: plain, name: 'a' } }),
    );
    expect(res.status).toBe(200);
    expect(res.json.error.message).toMatch(/^Exception: /);
  });

  it('serves a single byte range of a server-decrypted file', async () => {
    const data = randomBytesOf(5000, 3);
    const res = await post(currentUploadUrl(t.server), form({ file: { bytes: data, name: 'r.bin' } }));
    const got = await getBytes(res.json.result.url, { Range: 'bytes=37-1234' });
    expect(got.status).toBe(206);
    expect(got.headers.get('content-range')).toBe('bytes 37-1234/5000');
    expect(got.bytes).toEqual(data.subarray(37, 1235));
  });
});

describe('field binding', () => {
  it('binds only true/false in any case; 1 and on leave the defaults', async () => {
    const ignored = await post(
      currentUploadUrl(t.server),
      form({
        encrypt: '0',
        saveKey: 'off',
        genDeletionKey: '1',
        doNotTrack: 'on',
        file: { bytes: plain, name: 'a' },
      }),
    );
    expect(await t.server.stored(ignored.json.result.fileName)).toMatchObject({
      encrypted: true,
      saved: true,
      deletionKey: '',
      doNotTrack: false,
    });
    const bound = await post(
      currentUploadUrl(t.server),
      form({ ENCRYPT: 'False', savekey: 'FALSE', GenDeletionKey: 'True', file: { bytes: plain, name: 'a' } }),
    );
    expect(await t.server.stored(bound.json.result.fileName)).toMatchObject({
      encrypted: false,
      saved: false,
    });
    expect(bound.json.result.deletionKey).toMatch(/^[A-Za-z0-9]{24}$/);
  });

  it('replaces keySize/blockSize <= 0 by 256/128 and echoes other values', async () => {
    const zero = await post(
      currentUploadUrl(t.server),
      form({ keySize: '0', blockSize: '-8', file: { bytes: plain, name: 'a' } }),
    );
    expect(zero.json.result).toMatchObject({ keySize: 256, blockSize: 128 });
    const other = await post(
      currentUploadUrl(t.server),
      form({ keySize: '128', blockSize: '64', file: { bytes: plain, name: 'a' } }),
    );
    // Only echoed: the generated key stays 32 characters (Teknik took lengths from its config).
    expect(other.json.result).toMatchObject({ keySize: 128, blockSize: 64 });
    expect(other.json.result.key).toMatch(KEY_RE);
  });

  it('takes the content type from the field, else the part, else application/octet-stream', async () => {
    const cases: [Record<string, string>, string | undefined, string][] = [
      [{ contentType: 'image/webp' }, 'text/plain', 'image/webp'],
      [{}, 'application/pdf', 'application/pdf'],
      [{}, undefined, 'application/octet-stream'],
    ];
    for (const [fields, partType, expected] of cases) {
      const res = await post(
        currentUploadUrl(t.server),
        form({ ...fields, file: { bytes: plain, name: 'a.x', type: partType } }),
      );
      expect(res.json.result.contentType).toBe(expected);
    }
  });

  it('names files with 5 random characters plus the extension', async () => {
    const cases: [string, RegExp][] = [
      ['archive.tar.gz', /^[A-Za-z0-9]{5}\.tar\.gz$/],
      ['Photo.JPEG', /^[A-Za-z0-9]{5}\.JPEG$/],
      ['README', /^[A-Za-z0-9]{5}$/],
      ['.bashrc', /^[A-Za-z0-9]{5}$/],
      ['blob', /^[A-Za-z0-9]{5}$/],
    ];
    for (const [name, pattern] of cases) {
      const res = await post(currentUploadUrl(t.server), form({ file: { bytes: plain, name } }));
      expect(res.json.result.fileName).toMatch(pattern);
      expect((await t.server.stored(res.json.result.fileName))?.originalName).toBe(name);
    }
  });

  it('answers Invalid Upload Request without a file part or without a filename', async () => {
    const none = await post(currentUploadUrl(t.server), form({ encrypt: 'false' }));
    expect(none).toMatchObject({ status: 200, json: { error: { message: 'Invalid Upload Request' } } });

    const boundary = 'XyZboundary';
    const body = bytesOf(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream\r\n\r\n` +
        `data\r\n--${boundary}--\r\n`,
    );
    const noName = await post(currentUploadUrl(t.server), body, {
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(noName.json).toEqual({ error: { message: 'Invalid Upload Request' } });

    const notMultipart = await post(currentUploadUrl(t.server), bytesOf('{}'), {
      'Content-Type': 'application/json',
    });
    expect(notMultipart.json).toEqual({ error: { message: 'Invalid Upload Request' } });
  });
});

describe('deletion', () => {
  it('deletes by the deletion link (current variant) and refuses a wrong key', async () => {
    const res = await post(
      currentUploadUrl(t.server),
      form({ genDeletionKey: 'true', file: { bytes: plain, name: 'd.txt' } }),
    );
    const { fileName, deletionKey } = res.json.result;
    expect(deletionKey).toMatch(/^[A-Za-z0-9]{24}$/);
    const stored = (await t.server.stored(fileName))!;

    const wrong = await fetch(`${t.server.uploadUrl}/${fileName}/${'x'.repeat(24)}`);
    expect(wrong.status).toBe(200);
    expect(await wrong.text()).toContain('was unable to be Deleted');
    expect(await t.server.stored(fileName)).toBeDefined();
    expect(await stored.bytesStored()).toBe(true);

    const right = await fetch(`${t.server.uploadUrl}/${fileName}/${deletionKey}`);
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await right.text()).toContain('has been Deleted');
    expect(await t.server.stored(fileName)).toBeUndefined();
    expect(await stored.bytesStored()).toBe(false);
    expect((await getBytes(`${t.server.uploadUrl}/${fileName}`)).status).toBe(404);
    expect((await fetch(`${t.server.uploadUrl}/${fileName}/${deletionKey}`)).status).toBe(404);
  });

  it('deletes by the legacy deletion link', async () => {
    const res = await post(
      legacyUploadUrl(t.server),
      form({ genDeletionKey: 'true', file: { bytes: plain, name: 'd' } }),
    );
    const { fileName, deletionKey } = res.json.result;
    const page = await fetch(`${t.server.baseUrl}/${fileName}/${deletionKey}?sub=u`);
    expect(await page.text()).toContain('has been Deleted');
    expect((await getBytes(`${t.server.baseUrl}/${fileName}?sub=u`)).status).toBe(404);
  });

  it('cannot delete an upload made without a deletion key', async () => {
    const res = await post(currentUploadUrl(t.server), form({ file: { bytes: plain, name: 'd' } }));
    expect(res.json.result.deletionKey).toBe('');
    const page = await fetch(`${t.server.uploadUrl}/${res.json.result.fileName}/anything`);
    expect(await page.text()).toContain('was unable to be Deleted');
    expect(await t.server.stored(res.json.result.fileName)).toBeDefined();
  });
});

describe('deletion modes', () => {
  async function uploadTo(server: TestServer['server']) {
    const res = await post(
      currentUploadUrl(server),
      form({ genDeletionKey: 'true', file: { bytes: plain, name: 'd.txt' } }),
    );
    return res.json.result as { fileName: string; deletionKey: string };
  }

  it('other-wording: answers "File deleted" / "Wrong deletion key" in plain text, and deletes', async () => {
    const other = await startTestServer({ deletion: 'other-wording' });
    try {
      const { fileName, deletionKey } = await uploadTo(other.server);
      const wrong = await fetch(`${other.server.uploadUrl}/${fileName}/${'x'.repeat(24)}`);
      expect([wrong.status, await wrong.text()]).toEqual([200, 'Wrong deletion key']);
      expect(await other.server.stored(fileName)).toBeDefined();
      const right = await fetch(`${other.server.uploadUrl}/${fileName}/${deletionKey}`);
      expect(right.headers.get('content-type')).toMatch(/^text\/plain/);
      expect([right.status, await right.text()]).toEqual([200, 'File deleted']);
      expect(await other.server.stored(fileName)).toBeUndefined();
      expect((await getBytes(`${other.server.uploadUrl}/${fileName}`)).status).toBe(404);
    } finally {
      await other.stop();
    }
  });

  it('keeps-file: answers Teknik’s "has been Deleted" but keeps serving the file', async () => {
    const keeps = await startTestServer({ deletion: 'keeps-file' });
    try {
      const { fileName, deletionKey } = await uploadTo(keeps.server);
      const right = await fetch(`${keeps.server.uploadUrl}/${fileName}/${deletionKey}`);
      expect(await right.text()).toContain('has been Deleted');
      expect(await keeps.server.stored(fileName)).toBeDefined();
      expect((await getBytes(`${keeps.server.uploadUrl}/${fileName}`)).status).toBe(200);
    } finally {
      await keeps.stop();
    }
  });
});

describe('legacy expiry', () => {
  it('expires after maxDownloads GETs (seed and real spellings)', async () => {
    const cases: [Record<string, string>, number][] = [
      [{ expireUnit: 'view', expireLength: '2' }, 2],
      [{ expirationUnit: 'views', expirationLength: '3' }, 3],
      [{ expirationUnit: '1' }, 1],
    ];
    for (const [fields, views] of cases) {
      const res = await post(
        legacyUploadUrl(t.server),
        form({ ...fields, file: { bytes: plain, name: 'v' } }),
      );
      const r = res.json.result;
      expect(r).toMatchObject({ maxDownloads: views, expirationDate: null });
      for (let i = 0; i < views; i++) expect((await getBytes(r.url)).bytes).toEqual(plain);
      const stored = (await t.server.stored(r.fileName))!;
      expect((await getBytes(r.url)).status).toBe(404);
      expect(await t.server.stored(r.fileName)).toBeUndefined();
      expect(await stored.bytesStored()).toBe(false);
    }
  });

  it('expires at a date computed from the injected clock', async () => {
    let clock = new Date(2025, 0, 31, 12, 0, 0).getTime();
    const s = await startTestServer({ now: () => clock });
    try {
      const upload = async (fields: Record<string, string>) =>
        (await post(legacyUploadUrl(s.server), form({ ...fields, file: { bytes: plain, name: 'e' } }))).json
          .result;

      const hours = await upload({ expireUnit: 'hour', expireLength: '2' });
      expect(hours.maxDownloads).toBe(0);
      expect(hours.expirationDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,7})?[+-]\d\d:\d\d$/);
      expect(Date.parse(hours.expirationDate)).toBe(clock + 2 * 3_600_000);

      // Calendar months clamp to the month's end, as .NET AddMonths did.
      const months = new Date(Date.parse((await upload({ expirationUnit: 'Months' })).expirationDate));
      expect([months.getFullYear(), months.getMonth(), months.getDate(), months.getHours()]).toEqual([
        2025, 1, 28, 12,
      ]);
      const days = new Date(
        Date.parse((await upload({ expirationUnit: '12', expirationLength: '3' })).expirationDate),
      );
      expect([days.getMonth(), days.getDate(), days.getHours()]).toEqual([1, 3, 12]);

      // The real server's pair wins; an unbindable real unit falls back to the seed's.
      const conflict = await upload({ expireUnit: 'day', expirationUnit: 'Minutes', expirationLength: '5' });
      expect(Date.parse(conflict.expirationDate)).toBe(clock + 5 * 60_000);
      const singular = await upload({ expirationUnit: 'day', expireUnit: 'minute', expireLength: '7' });
      expect(Date.parse(singular.expirationDate)).toBe(clock + 7 * 60_000);
      const never = await upload({ expirationUnit: 'day' });
      expect(never).toMatchObject({ maxDownloads: 0, expirationDate: null });

      expect((await getBytes(hours.url)).status).toBe(200);
      clock += 2 * 3_600_000 + 1;
      const stored = (await s.server.stored(hours.fileName))!;
      expect((await getBytes(hours.url)).status).toBe(404);
      expect(await s.server.stored(hours.fileName)).toBeUndefined();
      expect(await stored.bytesStored()).toBe(false);
      expect((await getBytes(never.url)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});

describe('Basic auth (current variant)', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

  it('links the upload to a valid account, also with UTF-8 credentials', async () => {
    for (const [user, token] of [
      ['alice', 'a'.repeat(96)],
      ['jörg', 'tøken'],
    ]) {
      const res = await post(currentUploadUrl(t.server), form({ file: { bytes: plain, name: 'u' } }), {
        Authorization: basic(`${user}:${token}`),
      });
      expect(res.status).toBe(200);
      expect((await t.server.stored(res.json.result.fileName))?.username).toBe(user);
    }
  });

  it('uploads anonymously without the header', async () => {
    const res = await post(currentUploadUrl(t.server), form({ file: { bytes: plain, name: 'u' } }));
    expect((await t.server.stored(res.json.result.fileName))?.username).toBeUndefined();
  });

  it('answers 401 for wrong or undecodable credentials and keeps nothing', async () => {
    const before = (await storedFiles(t.server)).length;
    const latin1 = `Basic ${Buffer.from('j\xf6rg:t\xf8ken', 'latin1').toString('base64')}`;
    for (const header of [
      basic('alice:wrong'),
      basic('nobody:x'),
      basic('alice'),
      'Basic !!!',
      'Bearer abc',
      latin1,
    ]) {
      const res = await post(currentUploadUrl(t.server), form({ file: { bytes: plain, name: 'u' } }), {
        Authorization: header,
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="Hushdrop reference server"');
      expect(res.json).toEqual({ error: { type: 401, message: 'Unauthorized' } });
    }
    expect((await storedFiles(t.server)).length).toBe(before);
  });
});

describe('size limit', () => {
  it('answers 413 with a JSON error over the limit and keeps nothing', async () => {
    const s = await startTestServer({ maxUploadBytes: 1000 });
    try {
      const exact = await post(
        currentUploadUrl(s.server),
        form({ file: { bytes: randomBytesOf(1000), name: 'a' } }),
      );
      expect(exact.status).toBe(200);
      const filesBefore = await storedFiles(s.server);
      for (const size of [1001, 5 * 1024 * 1024]) {
        const res = await post(
          legacyUploadUrl(s.server),
          form({ file: { bytes: randomBytesOf(size), name: 'a' } }),
        );
        expect(res.status).toBe(413);
        expect(res.json).toEqual({ error: { message: 'File Too Large.  Max file size is 1000 B' } });
      }
      expect(await storedFiles(s.server)).toEqual(filesBefore);
    } finally {
      await s.stop();
    }
  });

  it('words the limit in binary units', async () => {
    const s = await startTestServer({ maxUploadBytes: 1536 });
    try {
      const res = await post(
        currentUploadUrl(s.server),
        form({ file: { bytes: randomBytesOf(2000), name: 'a' } }),
      );
      expect(res.json.error.message).toBe('File Too Large.  Max file size is 1.5 KiB');
    } finally {
      await s.stop();
    }
  });
});

describe('other requests', () => {
  it('answers 404 with HTML for unknown files and paths, and sends no CORS headers', async () => {
    for (const url of [
      `${t.server.uploadUrl}/nope1.txt`,
      `${t.server.baseUrl}/nope1?sub=u`,
      `${t.server.baseUrl}/x/y/z`,
    ]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    const get = await fetch(currentUploadUrl(t.server));
    expect(get.status).toBe(404);
    const options = await fetch(currentUploadUrl(t.server), {
      method: 'OPTIONS',
      headers: { Origin: 'https://e.test' },
    });
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
    const upload = await post(currentUploadUrl(t.server), form({ file: { bytes: plain, name: 'a' } }), {
      Origin: 'https://e.test',
    });
    expect(upload.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives every upload its own name', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const res = await post(
        currentUploadUrl(t.server),
        form({ encrypt: 'false', file: { bytes: plain, name: 'n' } }),
      );
      names.add(res.json.result.fileName);
    }
    expect(names.size).toBe(30);
  });
});

describe('robustness', () => {
  it('keeps nothing from an upload whose connection drops, and carries on', async () => {
    const s = await startTestServer();
    try {
      const boundary = 'dropBoundary';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="d.bin"\r\n\r\n`;
      const req = request(currentUploadUrl(s.server), {
        method: 'POST',
        headers: {
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': '10000000',
        },
      });
      req.on('error', () => {});
      req.write(head);
      req.write(randomBytesOf(256 * 1024 + heldBeforeStoring(s.server)));
      // Wait until the server is writing the part to the store, then cut the connection.
      while ((await storedFiles(s.server)).length === 0) await new Promise((r) => setTimeout(r, 10));
      req.destroy();
      while ((await storedFiles(s.server)).length > 0) await new Promise((r) => setTimeout(r, 10));
      const ok = await post(currentUploadUrl(s.server), form({ file: { bytes: plain, name: 'after' } }));
      expect(ok.status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('handles an empty file and a content type that cannot be a header', async () => {
    const empty = await post(
      currentUploadUrl(t.server),
      form({ file: { bytes: new Uint8Array(0), name: 'e.txt' } }),
    );
    expect(empty.json.result.contentLength).toBe(0);
    const got = await getBytes(empty.json.result.url);
    expect(got.status).toBe(200);
    expect(got.bytes.length).toBe(0);

    const odd = await post(
      currentUploadUrl(t.server),
      form({ contentType: 'bild/ö', file: { bytes: plain, name: 'o.txt' } }),
    );
    expect(odd.json.result.contentType).toBe('bild/ö');
    const served = await getBytes(odd.json.result.url);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.bytes).toEqual(plain);
  });
});

describe('a stored copy shorter than its record (damaged disk, a store that lost bytes)', () => {
  it('breaks the answer off at once instead of leaving the client waiting for the promised length', async () => {
    const { server } = t;
    const res = await post(
      currentUploadUrl(server),
      form({ encrypt: 'false', file: { bytes: randomBytesOf(100_000), name: 'cut.bin' } }),
    );
    const { fileName, url } = res.json.result;
    // The store's copy is replaced by its first 40 000 bytes, the record still says 100 000.
    const stored = (await server.stored(fileName))!;
    await stored.replaceBytes((await stored.bytes()).subarray(0, 40_000));
    // A GET that read the promised length would hang here until the test's timeout.
    const outcome = await new Promise<string>((resolve) => {
      request(url, (answer) => {
        let got = 0;
        answer.on('data', (chunk: Buffer) => {
          got += chunk.length;
        });
        answer.on('end', () => resolve(`ended after ${got}`));
        answer.on('error', () => resolve(`cut after ${got}`));
        answer.on('aborted', () => resolve(`cut after ${got}`));
      })
        .on('error', () => resolve('cut'))
        .end();
    });
    expect(outcome).toMatch(/^cut/);
  });
});
