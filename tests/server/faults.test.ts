import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bytesOf,
  currentUploadUrl,
  form,
  legacyUploadUrl,
  post,
  randomBytesOf,
  startTestServer,
  storedFiles,
  type TestServer,
} from './test-helpers';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer({ record: true, dripIntervalMs: 2 });
});
afterEach(async () => {
  await t.stop();
});

const small = () => form({ encrypt: 'false', file: { bytes: bytesOf('small file'), name: 's.txt' } });
const big = () => form({ encrypt: 'false', file: { bytes: randomBytesOf(1024 * 1024), name: 'b.bin' } });

/** Polls until the server has received `bytes` of the last request's body. */
async function bodyArrived(bytes: number): Promise<void> {
  for (;;) {
    const last = t.server.requests.at(-1);
    if (last && last.bodyBytes >= bytes) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('faults', () => {
  it('close-mid-upload drops the connection after part of the body and stores nothing', async () => {
    t.server.setFault('close-mid-upload');
    await expect(fetch(currentUploadUrl(t.server), { method: 'POST', body: big() })).rejects.toThrow();
    const received = t.server.requests[0].bodyBytes;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(1024 * 1024);
    expect(await storedFiles(t.server)).toEqual([]);
  });

  it('answer-then-drop stores the upload, then breaks the connection halfway through the answer', async () => {
    t.server.setFault('answer-then-drop');
    const res = await fetch(currentUploadUrl(t.server), { method: 'POST', body: small() });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect((await storedFiles(t.server)).length).toBe(1);
  });

  it('stall consumes the body and never answers; close() ends it', async () => {
    t.server.setFault('stall');
    const body = big();
    const size = (await new Response(body).arrayBuffer()).byteLength;
    const pending = fetch(legacyUploadUrl(t.server), { method: 'POST', body });
    const outcome = pending.then(
      () => 'answered',
      () => 'dropped',
    );
    await bodyArrived(size);
    await t.server.close();
    expect(await outcome).toBe('dropped');
    expect(await storedFiles(t.server)).toEqual([]);
  });

  it('html-500 answers 500 with an HTML page', async () => {
    t.server.setFault('html-500');
    const res = await post(currentUploadUrl(t.server), big());
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<html');
    expect(await storedFiles(t.server)).toEqual([]);
  });

  it('error-200 answers 200 with an application error', async () => {
    t.server.setFault('error-200');
    const res = await post(currentUploadUrl(t.server), small());
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ error: { message: 'Uploads are Disabled' } });
    expect(await storedFiles(t.server)).toEqual([]);
  });

  it('too-large-413 answers 413 with the JSON error after reading the body', async () => {
    t.server.setFault('too-large-413');
    const res = await post(legacyUploadUrl(t.server), big());
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: { message: 'File Too Large.  Max file size is 1 GiB' } });
    expect(t.server.requests[0].bodyBytes).toBeGreaterThan(1024 * 1024);
  });

  it('proxy-413 answers an HTML 413 that states no limit, after reading the body', async () => {
    t.server.setFault('proxy-413');
    const res = await post(currentUploadUrl(t.server), big());
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('413 Request Entity Too Large');
    expect(res.text).not.toMatch(/max(imum)? file size/i);
    expect(t.server.requests[0].bodyBytes).toBeGreaterThan(1024 * 1024);
    expect(await storedFiles(t.server)).toEqual([]);
  });

  it('malformed-json answers 200 with JSON that does not parse', async () => {
    t.server.setFault('malformed-json');
    const res = await post(currentUploadUrl(t.server), small());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(res.text)).toThrow();
    expect(await storedFiles(t.server)).toEqual([]);
  });

  it('drip sends a correct answer one byte at a time', async () => {
    t.server.setFault('drip');
    const res = await fetch(currentUploadUrl(t.server), { method: 'POST', body: small() });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(chunks.length).toBeGreaterThan(1);
    const result = JSON.parse(text).result;
    // The answer is real: the upload was stored and can be downloaded.
    expect(await (await fetch(result.url)).text()).toBe('small file');
  });

  it('applies to uploads only, persists until cleared, and `once` clears after one request', async () => {
    t.server.setFault('error-200');
    const first = await post(currentUploadUrl(t.server), small());
    expect(first.json.error).toBeDefined();
    const second = await post(currentUploadUrl(t.server), small());
    expect(second.json.error).toBeDefined();
    t.server.setFault(null);
    const ok = await post(currentUploadUrl(t.server), small());
    expect(ok.json.result).toBeDefined();

    t.server.setFault('html-500', { once: true });
    expect((await fetch(ok.json.result.url)).status).toBe(200);
    expect((await post(legacyUploadUrl(t.server), small())).status).toBe(500);
    expect((await post(legacyUploadUrl(t.server), small())).status).toBe(200);
  });
});
