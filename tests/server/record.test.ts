import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findInRecorded } from './record';
import {
  bytesOf,
  currentUploadUrl,
  form,
  legacyUploadUrl,
  post,
  randomBytesOf,
  startTestServer,
  type TestServer,
  teknikCtr,
} from './test-helpers';
import type { RecordedRequest } from './types';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('recording', () => {
  it('keeps every request with its raw body, and finds what reached the server', async () => {
    t = await startTestServer({ record: true });
    const key = 'abcdefghijklmnopqrstuvwxyzABCDEF';
    const iv = '0123456789ABCDEF';
    const plain = randomBytesOf(300_000, 11);
    const cipher = teknikCtr(key, iv, plain);
    const fd = form({ encrypt: 'false', saveKey: 'false', iv, file: { bytes: cipher, name: 'secret.bin' } });
    const raw = new Uint8Array(await new Response(fd).arrayBuffer());
    const res = await fetch(legacyUploadUrl(t.server), {
      method: 'POST',
      body: fd,
      headers: { 'X-Probe': 'probe-in-a-header' },
    });
    const { result } = await res.json();
    await fetch(`${t.server.uploadUrl}/${result.fileName}?q=probe%2Din%2Durl`);

    const { requests } = t.server;
    expect(requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(requests[0].url).toBe('/v1/Upload?sub=api');
    expect(requests[0].headers['x-probe']).toBe('probe-in-a-header');
    expect(requests[0].bodyBytes).toBe(Number(requests[0].headers['content-length']));
    expect(requests[0].bodyPath).toBe(join(t.dataDir, 'requests', '0.bin'));
    const recorded = await readFile(requests[0].bodyPath);
    expect(recorded.length).toBe(raw.length);
    expect(requests[1].bodyBytes).toBe(0);

    expect(findInRecorded(t.server, bytesOf(key))).toEqual([]);
    expect(findInRecorded(t.server, plain.subarray(1000, 1032))).toEqual([]);
    const ivHits = findInRecorded(t.server, bytesOf(iv));
    expect(ivHits).toHaveLength(1);
    expect(ivHits[0]).toMatch(/^request 0 \(POST \/v1\/Upload\?sub=api\): body at byte \d+$/);
    const offset = Number(/(\d+)$/.exec(ivHits[0])![1]);
    expect(recorded.subarray(offset, offset + 16).toString()).toBe(iv);
    expect(findInRecorded(t.server, cipher.subarray(250_000, 250_100))).toHaveLength(1);
    expect(findInRecorded(t.server, bytesOf('probe-in-a-header'))).toEqual([
      'request 0 (POST /v1/Upload?sub=api): request line or headers',
    ]);
    expect(findInRecorded(t.server, bytesOf('probe-in-url'))[0]).toMatch(/^request 1 .*percent-decoded/);
  });

  it('records nothing unless asked', async () => {
    t = await startTestServer();
    await post(currentUploadUrl(t.server), form({ file: { bytes: bytesOf('x'), name: 'x' } }));
    expect(t.server.requests).toEqual([]);
  });

  it('finds a needle across the search chunk boundary, every time it occurs', async () => {
    t = await startTestServer();
    const needle = bytesOf('NEEDLE-0123456789');
    const body = randomBytesOf(3 * 1024 * 1024, 5).map((b) => b & 0x7f);
    for (const at of [0, 1024 * 1024 - 5, 2 * 1024 * 1024 - 1, body.length - needle.length])
      body.set(needle, at);
    const bodyPath = join(t.dataDir, 'synthetic.bin');
    await writeFile(bodyPath, body);
    const request: RecordedRequest = {
      method: 'PUT',
      url: '/x',
      headers: {},
      httpVersion: '1.1',
      bodyPath,
      bodyBytes: body.length,
    };
    expect(findInRecorded({ requests: [request] }, needle)).toEqual(
      [0, 1024 * 1024 - 5, 2 * 1024 * 1024 - 1, body.length - needle.length].map(
        (at) => `request 0 (PUT /x): body at byte ${at}`,
      ),
    );
  });
});
