import { describe, expect, it } from 'vitest';
import {
  buildPartsStart,
  buildUploadRequest,
  checkPartAnswer,
  MIN_PART_BYTES,
  partSize,
  partsEndpoint,
  partsSessionUrl,
  partUrl,
  readPartsStart,
  UploadError,
  type UploadOptions,
  type UploadTarget,
  xhrExchange,
} from '../../lib/upload';
import { Declined } from '../../lib/upload/plan';
import { FakeXHR, XHR } from './fakes';

const addresses = {
  baseUrl: 'https://hush.example',
  apiUrl: 'https://api.hush.example',
  uploadUrl: 'https://u.hush.example',
};
const legacy: UploadTarget = { variant: 'legacy', addresses };
const current: UploadTarget = {
  variant: 'current',
  addresses,
  credentials: { username: 'ann', token: 'secret' },
};
const file = { name: 'holiday photo.png', type: 'image/png' };
const IV = 'AbCdEfGh01234567';
const client: UploadOptions = { mode: 'client', format: 'teknik', saveKey: false, genDeletionKey: true };
const MIB = 1024 * 1024;
const ID = 'Ab3dEf6hIj9lMn2pQr5tUv8xYz';

const answer = (status: number, json: unknown) => ({
  status,
  contentType: 'application/json',
  body: typeof json === 'string' ? json : JSON.stringify(json),
});
const started = (more: Record<string, unknown> = {}) =>
  answer(201, { id: ID, partBytes: 5 * MIB, parts: 3, expiresAt: '2026-11-26T18:00:00Z', ...more });

describe('parts addresses', () => {
  it('appends /Parts to the upload endpoint’s path, keeping the legacy query', () => {
    const base = partsEndpoint(buildUploadRequest(legacy, client, file, IV).url);
    expect(base).toBe('https://hush.example/v1/Upload/Parts?sub=api');
    expect(partUrl(base, ID, 2)).toBe(`https://hush.example/v1/Upload/Parts/${ID}/2?sub=api`);
    expect(partsSessionUrl(base, ID)).toBe(`https://hush.example/v1/Upload/Parts/${ID}?sub=api`);
  });

  it('current variant: {apiUrl}/v1/Upload/Parts, a path in the address kept', () => {
    expect(partsEndpoint(buildUploadRequest(current, client, file, IV).url)).toBe(
      'https://api.hush.example/v1/Upload/Parts',
    );
    const under: UploadTarget = {
      ...current,
      addresses: { ...addresses, apiUrl: 'http://127.0.0.1:8787/api/' },
    };
    const base = partsEndpoint(buildUploadRequest(under, client, file, IV).url);
    expect(base).toBe('http://127.0.0.1:8787/api/v1/Upload/Parts');
    expect(partUrl(base, ID, 0)).toBe(`http://127.0.0.1:8787/api/v1/Upload/Parts/${ID}/0`);
  });
});

describe('Start’s form', () => {
  it('has the one-request form’s fields and headers, then partsTotal and fileName', () => {
    for (const [target, options] of [
      [current, client],
      [legacy, client],
      [current, { ...client, format: 'ece' }],
      [legacy, { mode: 'none', saveKey: false, genDeletionKey: false, expireUnit: 'day', expireLength: 2 }],
    ] as Array<[UploadTarget, UploadOptions]>) {
      const one = buildUploadRequest(target, options, file, IV);
      const start = buildPartsStart(target, options, file, 12_345_678, IV);
      expect(start.url).toBe(partsEndpoint(one.url));
      expect(start.headers).toEqual(one.headers);
      expect(start.fields).toEqual([
        ...one.fields,
        ['partsTotal', '12345678'],
        ['fileName', 'holiday photo.png'],
      ]);
    }
  });

  it('carries the account’s Basic authorization (current variant)', () => {
    expect(buildPartsStart(current, client, file, 1, IV).headers.Authorization).toMatch(/^Basic /);
  });

  it('names an unnamed file as the one-request form does', () => {
    const fields = buildPartsStart(current, client, { name: '  ', type: '' }, 9, IV).fields;
    expect(fields.at(-1)).toEqual(['fileName', 'file']);
  });

  it('refuses a total that is not a positive whole number', () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => buildPartsStart(current, client, file, bad, IV)).toThrow(RangeError);
  });
});

describe('Start’s answer', () => {
  const total = 12 * MIB;

  it('reads a usable session', () => {
    expect(readPartsStart(started(), total)).toEqual({ id: ID, partBytes: 5 * MIB, parts: 3, total });
  });

  it('declines with "no parts" on 404 and 405, whatever the body', () => {
    for (const refused of [answer(404, '<h1>Not found</h1>'), answer(405, '')]) {
      const declined = readPartsStart(refused, total);
      expect(declined).toBeInstanceOf(Declined);
      expect((declined as Declined).reason).toBe('no parts');
    }
  });

  it('declines with "parts busy" on 429 (sessions open from here, or a limit): the file goes as one request', () => {
    const busy = answer(429, { error: { message: 'Your address already has 4 uploads in parts open.' } });
    expect((readPartsStart(busy, total) as Declined).reason).toBe('parts busy');
  });

  it('reads other refusals as a one-request upload’s, with the server’s words as text', () => {
    const tooBig = (() => {
      try {
        readPartsStart(answer(413, { error: { message: 'Too big.' } }), total);
      } catch (err) {
        return err as UploadError;
      }
    })();
    expect(tooBig).toMatchObject({ kind: 'too-large', serverMessage: 'Too big.' });
    expect(() =>
      readPartsStart(answer(400, { error: { message: 'encrypt=true is refused' } }), total),
    ).toThrow(expect.objectContaining({ kind: 'http', serverMessage: 'encrypt=true is refused' }));
    expect(() => readPartsStart(answer(201, { error: { message: '<b>No</b>' } }), total)).toThrow(
      expect.objectContaining({ kind: 'rejected', serverMessage: '<b>No</b>' }),
    );
  });

  const refused = (a: ReturnType<typeof answer>) => {
    try {
      readPartsStart(a, total);
    } catch (err) {
      expect(err).toBeInstanceOf(UploadError);
      expect((err as UploadError).kind).toBe('bad-response');
      return (err as UploadError).message;
    }
    throw new Error('accepted');
  };

  it('refuses a session id of the wrong shape, in a sentence', () => {
    for (const id of [undefined, 7, '', 'short', `${ID}/../x`, 'a'.repeat(129), `${ID}é`, `${ID} `])
      expect(refused(started({ id }))).toMatch(/session name that is not safe/);
  });

  it('refuses a part size below 5 MiB, absurdly large, or not a whole number', () => {
    for (const partBytes of [
      MIN_PART_BYTES - 1,
      0,
      -5,
      1e12,
      5 * MIB + 0.5,
      '5242880',
      null,
      Number.MAX_VALUE,
    ])
      expect(refused(started({ partBytes }))).toMatch(
        /asked for parts of .* bytes; Hushdrop sends parts of 5 MiB to 512 MiB/,
      );
  });

  it('refuses a count of parts that does not add up', () => {
    for (const parts of [2, 4, 0, '3', 3.0000001, undefined])
      expect(refused(started({ parts }))).toMatch(/where there are 3\./);
  });

  it('refuses a success that is not 201 JSON', () => {
    expect(refused(answer(200, { id: ID, partBytes: 5 * MIB, parts: 3 }))).toMatch(/could not be read/);
    expect(refused(answer(201, 'not json'))).toMatch(/could not be read/);
    expect(refused(answer(201, [1, 2]))).toMatch(/could not be read/);
  });
});

describe('parts', () => {
  it('every part but the last has partBytes', () => {
    const session = { partBytes: 5 * MIB, parts: 3, total: 12 * MIB };
    expect([0, 1, 2].map((i) => partSize(session, i))).toEqual([5 * MIB, 5 * MIB, 2 * MIB]);
    expect(partSize({ partBytes: 5 * MIB, parts: 2, total: 10 * MIB }, 1)).toBe(5 * MIB);
  });

  it('a part’s answer: 204 is taken; a refusal names the part and keeps the server’s words', () => {
    expect(() => checkPartAnswer(answer(204, ''), 0, 3)).not.toThrow();
    expect(() => checkPartAnswer(answer(400, { error: { message: 'Body too short.' } }), 1, 3)).toThrow(
      expect.objectContaining({
        message: 'The server refused part 2 of 3 of the upload (HTTP 400).',
        serverMessage: 'Body too short.',
      }),
    );
    expect(() => checkPartAnswer(answer(413, ''), 0, 3)).toThrow(
      expect.objectContaining({ kind: 'too-large' }),
    );
    expect(() => checkPartAnswer(answer(200, ''), 0, 3)).toThrow(
      expect.objectContaining({ kind: 'bad-response' }),
    );
  });
});

describe('a part’s request (xhrExchange)', () => {
  it('PUTs the raw bytes with the headers given, and reports progress', async () => {
    const body = new Blob([new Uint8Array(10)]);
    const seen: number[] = [];
    const sent = xhrExchange(
      XHR,
      {
        method: 'PUT',
        url: 'https://h/v1/Upload/Parts/x/0',
        headers: { 'Content-Type': 'application/octet-stream' },
        body,
      },
      { onProgress: (loaded) => seen.push(loaded) },
    );
    const xhr = FakeXHR.last!;
    expect([xhr.method, xhr.url, xhr.body, xhr.headers]).toEqual([
      'PUT',
      'https://h/v1/Upload/Parts/x/0',
      body,
      { 'Content-Type': 'application/octet-stream' },
    ]);
    xhr.progress(10, 10);
    xhr.respond(204, null, '');
    expect((await sent).status).toBe(204);
    expect(seen).toEqual([10]);
  });

  it('a broken connection is a network UploadError (the part is sent once more)', async () => {
    const sent = xhrExchange(XHR, { method: 'PUT', url: 'https://h/p', headers: {}, body: null });
    FakeXHR.last!.fail();
    await expect(sent).rejects.toMatchObject({ kind: 'network' });
  });
});
