import { describe, expect, it } from 'vitest';
import {
  buildFormData,
  buildUploadRequest,
  type ExpireUnit,
  LINK_FORMAT_FIELD,
  type Mode,
  storedSize,
  UploadError,
  type UploadOptions,
  type UploadTarget,
} from '../../lib/upload';

const addresses = {
  baseUrl: 'https://teknik.example',
  apiUrl: 'https://api.teknik.example',
  uploadUrl: 'https://u.teknik.example',
};
const legacy: UploadTarget = { variant: 'legacy', addresses };
const current: UploadTarget = { variant: 'current', addresses };
const file = { name: 'holiday photo.png', type: 'image/png' };
const IV = 'AbCdEfGh01234567';

const opts = (mode: Mode, more: Partial<UploadOptions> = {}): UploadOptions => ({
  mode,
  saveKey: true,
  genDeletionKey: false,
  ...more,
});

const names = (fields: Array<[string, string]>) => fields.map(([name]) => name);

describe('endpoint', () => {
  it('legacy posts to {baseUrl}/v1/Upload?sub=api', () => {
    expect(buildUploadRequest(legacy, opts('none'), file).url).toBe(
      'https://teknik.example/v1/Upload?sub=api',
    );
  });

  it('current posts to {apiUrl}/v1/Upload', () => {
    expect(buildUploadRequest(current, opts('none'), file).url).toBe('https://api.teknik.example/v1/Upload');
  });

  it('keeps a path in the address and ignores trailing slashes', () => {
    const target: UploadTarget = {
      variant: 'current',
      addresses: { ...addresses, apiUrl: 'http://127.0.0.1:8787/api/' },
    };
    expect(buildUploadRequest(target, opts('none'), file).url).toBe('http://127.0.0.1:8787/api/v1/Upload');
    const old: UploadTarget = {
      variant: 'legacy',
      addresses: { ...addresses, baseUrl: 'http://127.0.0.1:8787/' },
    };
    expect(buildUploadRequest(old, opts('none'), file).url).toBe('http://127.0.0.1:8787/v1/Upload?sub=api');
  });

  it('refuses an address that is not http(s), in a sentence', () => {
    for (const bad of ['teknik.example', 'ftp://teknik.example']) {
      const target: UploadTarget = { variant: 'current', addresses: { ...addresses, apiUrl: bad } };
      expect(() => buildUploadRequest(target, opts('none'), file)).toThrow(UploadError);
      try {
        buildUploadRequest(target, opts('none'), file);
      } catch (error) {
        expect((error as UploadError).kind).toBe('settings');
        expect((error as UploadError).message).toMatch(/http:\/\/ or https:\/\//);
      }
    }
    // No address at all is a fresh install: it says to set up a server.
    const none: UploadTarget = { variant: 'current', addresses: { ...addresses, apiUrl: '' } };
    expect(() => buildUploadRequest(none, opts('none'), file)).toThrow(/No upload server is set up yet/);
  });
});

describe('fields, legacy variant', () => {
  it('client mode: original type, no server encryption, the IV, never the key', () => {
    const req = buildUploadRequest(legacy, opts('client', { genDeletionKey: true }), file, IV);
    expect(req.fields).toEqual([
      ['contentType', 'image/png'],
      ['encrypt', 'false'],
      ['saveKey', 'false'],
      ['keySize', '256'],
      ['iv', IV],
      ['blockSize', '128'],
      ['genDeletionKey', 'true'],
      ['expireUnit', 'never'],
      ['expireLength', '1'],
      ['expirationUnit', 'Never'],
      ['expirationLength', '1'],
    ]);
    expect(req.fileName).toBe('holiday photo.png');
    expect(req.headers).toEqual({});
  });

  it('server mode: encrypt=true and saveKey as chosen', () => {
    for (const saveKey of [true, false]) {
      const req = buildUploadRequest(legacy, opts('server', { saveKey }), file);
      expect(req.fields).toEqual([
        ['contentType', 'image/png'],
        ['encrypt', 'true'],
        ['saveKey', String(saveKey)],
        ['keySize', '256'],
        ['blockSize', '128'],
        ['genDeletionKey', 'false'],
        ['expireUnit', 'never'],
        ['expireLength', '1'],
        ['expirationUnit', 'Never'],
        ['expirationLength', '1'],
      ]);
    }
  });

  it('none mode: encrypt=false and saveKey=false, whatever saveKey says', () => {
    const req = buildUploadRequest(legacy, opts('none', { saveKey: true }), file);
    expect(req.fields).toEqual([
      ['contentType', 'image/png'],
      ['encrypt', 'false'],
      ['saveKey', 'false'],
      ['genDeletionKey', 'false'],
      ['expireUnit', 'never'],
      ['expireLength', '1'],
      ['expirationUnit', 'Never'],
      ['expirationLength', '1'],
    ]);
  });

  it('sends each expiry unit under both names', () => {
    const pairs: Array<[ExpireUnit, string]> = [
      ['never', 'Never'],
      ['view', 'Views'],
      ['minute', 'Minutes'],
      ['hour', 'Hours'],
      ['day', 'Days'],
      ['month', 'Months'],
      ['year', 'Years'],
    ];
    for (const [unit, real] of pairs) {
      const req = buildUploadRequest(legacy, opts('none', { expireUnit: unit, expireLength: 7 }), file);
      expect(req.fields.slice(-4)).toEqual([
        ['expireUnit', unit],
        ['expireLength', '7'],
        ['expirationUnit', real],
        ['expirationLength', '7'],
      ]);
    }
  });

  it('refuses an expiry length that is not a whole number of 1 or more', () => {
    for (const expireLength of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        buildUploadRequest(legacy, opts('none', { expireUnit: 'day', expireLength }), file),
      ).toThrow(expect.objectContaining({ kind: 'settings' }));
    }
  });

  it('sends no doNotTrack field and no Authorization, even when asked; DNT only when asked', () => {
    const target: UploadTarget = { ...legacy, credentials: { username: 'alice', token: 't' } };
    const req = buildUploadRequest(target, opts('none', { doNotTrack: true }), file);
    expect(names(req.fields)).not.toContain('doNotTrack');
    // Teknik's legacy-era (MVC) server skipped tracking for the header (teknik.md §10).
    expect(req.headers).toEqual({ DNT: '1' });
    expect(buildUploadRequest(target, opts('none'), file).headers).toEqual({});
  });
});

describe('fields, current variant', () => {
  it('client mode', () => {
    const req = buildUploadRequest(current, opts('client'), file, IV);
    expect(req.fields).toEqual([
      ['contentType', 'image/png'],
      ['encrypt', 'false'],
      ['saveKey', 'false'],
      ['keySize', '256'],
      ['iv', IV],
      ['blockSize', '128'],
      ['genDeletionKey', 'false'],
      ['doNotTrack', 'false'],
    ]);
    expect(req.headers).toEqual({});
  });

  it('server mode', () => {
    const req = buildUploadRequest(current, opts('server', { saveKey: false, genDeletionKey: true }), file);
    expect(req.fields).toEqual([
      ['contentType', 'image/png'],
      ['encrypt', 'true'],
      ['saveKey', 'false'],
      ['keySize', '256'],
      ['blockSize', '128'],
      ['genDeletionKey', 'true'],
      ['doNotTrack', 'false'],
    ]);
  });

  it('none mode', () => {
    const req = buildUploadRequest(current, opts('none'), file);
    expect(req.fields).toEqual([
      ['contentType', 'image/png'],
      ['encrypt', 'false'],
      ['saveKey', 'false'],
      ['genDeletionKey', 'false'],
      ['doNotTrack', 'false'],
    ]);
  });

  it('never sends expiry fields', () => {
    const req = buildUploadRequest(current, opts('none', { expireUnit: 'day', expireLength: 3 }), file);
    expect(names(req.fields).filter((n) => /^expir/.test(n))).toEqual([]);
  });

  it('doNotTrack=true sends the field and the DNT: 1 header', () => {
    const req = buildUploadRequest(current, opts('none', { doNotTrack: true }), file);
    expect(req.fields).toContainEqual(['doNotTrack', 'true']);
    expect(req.headers).toEqual({ DNT: '1' });
  });

  it('sends Basic auth as base64 of the UTF-8 bytes of username:token', () => {
    const target: UploadTarget = { ...current, credentials: { username: 'jörg', token: 'tøken' } };
    const req = buildUploadRequest(target, opts('none'), file);
    // 6a c3 b6 72 67 3a 74 c3 b8 6b 65 6e = "jörg:tøken" in UTF-8
    expect(req.headers.Authorization).toBe('Basic asO2cmc6dMO4a2Vu');
    const bytes = Buffer.from(req.headers.Authorization!.slice('Basic '.length), 'base64');
    expect(bytes.toString('hex')).toBe('6ac3b672673a74c3b86b656e');
    const plain: UploadTarget = { ...current, credentials: { username: 'Aladdin', token: 'open sesame' } };
    expect(buildUploadRequest(plain, opts('none'), file).headers.Authorization).toBe(
      'Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==',
    );
  });

  it('sends no Authorization for empty credentials', () => {
    const target: UploadTarget = { ...current, credentials: { username: '', token: '' } };
    expect(buildUploadRequest(target, opts('none'), file).headers).toEqual({});
  });
});

describe('every mode and variant', () => {
  it('writes booleans as true/false and always sends encrypt, saveKey, genDeletionKey', () => {
    for (const target of [legacy, current]) {
      for (const mode of ['client', 'server', 'none'] as const) {
        for (const genDeletionKey of [true, false]) {
          const req = buildUploadRequest(target, opts(mode, { genDeletionKey }), file, IV);
          const map = new Map(req.fields);
          for (const name of ['encrypt', 'saveKey', 'genDeletionKey'])
            expect(['true', 'false']).toContain(map.get(name));
          if (target.variant === 'current') expect(['true', 'false']).toContain(map.get('doNotTrack'));
          expect(map.get('genDeletionKey')).toBe(String(genDeletionKey));
          expect(map.has('key')).toBe(false);
          expect(new Set(names(req.fields)).size).toBe(req.fields.length);
        }
      }
    }
  });

  it('client mode needs a 16-character IV', () => {
    expect(() => buildUploadRequest(current, opts('client'), file)).toThrow(TypeError);
    expect(() => buildUploadRequest(current, opts('client'), file, 'short')).toThrow(TypeError);
    expect(() => buildUploadRequest(current, opts('client'), file, 'AbCdEfGh0123456-')).toThrow(TypeError);
  });

  it('client mode sends application/octet-stream when the type is unknown; other modes leave it to the server', () => {
    const untyped = { name: 'notes', type: '' };
    expect(buildUploadRequest(current, opts('client'), untyped, IV).fields[0]).toEqual([
      'contentType',
      'application/octet-stream',
    ]);
    expect(names(buildUploadRequest(current, opts('server'), untyped).fields)).not.toContain('contentType');
    expect(names(buildUploadRequest(current, opts('none'), untyped).fields)).not.toContain('contentType');
  });

  it('names the file part after the original file, or "file" when it has no name', () => {
    expect(buildUploadRequest(current, opts('none'), { name: 'a.tar.gz', type: '' }).fileName).toBe(
      'a.tar.gz',
    );
    expect(buildUploadRequest(current, opts('none'), { name: '', type: '' }).fileName).toBe('file');
  });
});

describe('buildFormData', () => {
  it('appends the fields in order and the file part last, with the original name', async () => {
    const req = buildUploadRequest(legacy, opts('client'), file, IV);
    const body = new Blob([new Uint8Array([1, 2, 3])]);
    const form = buildFormData(req, body);
    const entries = [...form.entries()];
    expect(entries.slice(0, -1)).toEqual(req.fields);
    const [name, part] = entries.at(-1)!;
    expect(name).toBe('file');
    expect(part).toBeInstanceOf(File);
    expect((part as File).name).toBe('holiday photo.png');
    expect([...new Uint8Array(await (part as File).arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('puts the file last in the encoded multipart body too', async () => {
    const req = buildUploadRequest(current, opts('none'), file);
    const encoded = await new Response(buildFormData(req, new Blob(['PAYLOAD']))).text();
    const order = ['contentType', 'encrypt', 'saveKey', 'genDeletionKey', 'doNotTrack', 'file'].map((n) =>
      encoded.indexOf(`name="${n}"`),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(encoded).toContain('filename="holiday photo.png"');
    expect(encoded.indexOf('PAYLOAD')).toBeGreaterThan(order.at(-1)!);
  });
});

describe('the authenticated format (client mode, format ece)', () => {
  it('says so in linkFormat and sends no Teknik cipher fields, legacy variant', () => {
    const req = buildUploadRequest(legacy, opts('client', { format: 'ece', genDeletionKey: true }), file);
    expect(req.fields).toEqual([
      ['contentType', 'image/png'],
      ['encrypt', 'false'],
      ['saveKey', 'false'],
      ['linkFormat', 'ece1'],
      ['genDeletionKey', 'true'],
      ['expireUnit', 'never'],
      ['expireLength', '1'],
      ['expirationUnit', 'Never'],
      ['expirationLength', '1'],
    ]);
    expect(LINK_FORMAT_FIELD).toBe('linkFormat');
    expect(req.fileName).toBe('holiday photo.png');
  });

  it('current variant, with credentials; an IV given by mistake is not sent', () => {
    const target: UploadTarget = { ...current, credentials: { username: 'ann', token: 't' } };
    const req = buildUploadRequest(target, opts('client', { format: 'ece' }), { name: 'a', type: '' }, IV);
    expect(req.fields).toEqual([
      ['contentType', 'application/octet-stream'],
      ['encrypt', 'false'],
      ['saveKey', 'false'],
      ['linkFormat', 'ece1'],
      ['genDeletionKey', 'false'],
      ['doNotTrack', 'false'],
    ]);
    expect(req.headers.Authorization).toMatch(/^Basic /);
  });

  it('changes nothing for the Teknik format (the default) or for server and none modes', () => {
    expect(buildUploadRequest(current, opts('client', { format: 'teknik' }), file, IV)).toEqual(
      buildUploadRequest(current, opts('client'), file, IV),
    );
    for (const mode of ['server', 'none'] as const)
      expect(buildUploadRequest(legacy, opts(mode, { format: 'ece' }), file)).toEqual(
        buildUploadRequest(legacy, opts(mode), file),
      );
  });

  it('stores the ciphertext: header + plaintext + 17 bytes per 64 KiB record', () => {
    expect(storedSize({ mode: 'client', format: 'ece' }, 0)).toBe(38);
    expect(storedSize({ mode: 'client', format: 'ece' }, 1024 * 1024)).toBe(1024 * 1024 + 310);
    for (const options of [{ mode: 'client' as const }, { mode: 'server' as const, format: 'ece' as const }])
      expect(storedSize(options, 1024 * 1024)).toBe(1024 * 1024);
  });
});
