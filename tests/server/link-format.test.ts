// The `linkFormat` field (issue 17): a client-encrypted upload in the authenticated format is stored
// as sent and recorded as ece1; the server never receives its secret, and refuses what cannot be one.

import { afterEach, describe, expect, it } from 'vitest';
import { storedBytes } from '../../devkit/stored-bytes';
import { eceEncryptBytes, randomSecret, secretText } from '../../lib/crypto';
import { fetchTransport, sendUpload } from '../../lib/upload';
import { findInRecorded } from './record';
import {
  bytesOf,
  currentUploadUrl,
  form,
  post,
  randomBytesOf,
  startTestServer,
  type TestServer,
} from './test-helpers';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('uploads in the ece1 link format', () => {
  it('are stored byte for byte, recorded as ece1, and reach the server without their secret', async () => {
    t = await startTestServer({ record: true });
    const { baseUrl, apiUrl, uploadUrl } = t.server;
    const plain = randomBytesOf(150_000, 17);
    const secret = randomSecret();
    const sealed = await eceEncryptBytes(plain, secret);
    const result = await sendUpload({
      target: { variant: 'current', addresses: { baseUrl, apiUrl, uploadUrl } },
      options: { mode: 'client', format: 'ece', saveKey: false, genDeletionKey: true },
      file: { name: 'notes.txt', type: 'text/plain' },
      body: new Blob([sealed]),
      transport: fetchTransport(),
    });
    const stored = (await t.server.stored(result.fileName))!;
    expect(stored.linkFormat).toBe('ece1');
    expect(stored.encrypted).toBe(false);
    expect(stored.key).toBeNull();
    expect(stored.iv).toBeNull();
    expect(new Uint8Array(await stored.bytes())).toEqual(sealed);
    expect((await storedBytes(result.url)).bytes).toEqual(sealed);
    expect(findInRecorded(t.server, secret)).toEqual([]);
    expect(findInRecorded(t.server, bytesOf(secretText(secret)))).toEqual([]);
    expect(findInRecorded(t.server, plain.subarray(70_000, 70_032))).toEqual([]);
  });

  it('refuses an unknown format, server encryption or a key with it, and a file too short to be one', async () => {
    t = await startTestServer();
    const file = { bytes: randomBytesOf(1000), name: 'x.bin' };
    const cases: [Record<string, string>, RegExp][] = [
      [{ linkFormat: 'ece2', encrypt: 'false' }, /Unknown linkFormat "ece2"/],
      [{ linkFormat: 'ece1', encrypt: 'true' }, /encrypted by the client/],
      [{ linkFormat: 'ece1', encrypt: 'false', key: 'abcdefghijklmnopqrstuvwxyzABCDEF' }, /no key/],
    ];
    for (const [fields, sentence] of cases) {
      const answer = await post(currentUploadUrl(t.server), form({ ...fields, file }));
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.json?.error?.message).toMatch(sentence);
    }
    const short = await post(
      currentUploadUrl(t.server),
      form({ linkFormat: 'ece1', encrypt: 'false', file: { bytes: randomBytesOf(20), name: 'x.bin' } }),
    );
    expect(short.json?.error?.message).toMatch(/too short/);
  });

  it('the server says it takes them in GET _hushdrop/info', async () => {
    t = await startTestServer();
    const info = await (await fetch(`${t.server.baseUrl}/_hushdrop/info`)).json();
    expect(info.server).toBe('hushdrop');
    expect(info.linkFormats).toContain('ece1');
  });
});
