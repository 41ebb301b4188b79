// `GET /_hushdrop/metrics`: Prometheus text of what the server did, off unless the config gives a token,
// and only for requests that carry it. On the `s3` project the uploads, and the store that fails, are S3's.

import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerSettings } from '../../server/config/settings';
import { PartsClient } from './parts-client';
import { s3ForTestServer } from './storage-under-test';
import { bytesOf, form, post, randomBytesOf, serversStoppedAfterEach } from './test-helpers';

const TOKEN = 'metrics-token-0123456789abcdef';
const start = serversStoppedAfterEach();

async function scrape(baseUrl: string, token = TOKEN) {
  const res = await fetch(
    `${baseUrl}/_hushdrop/metrics`,
    token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  );
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of one sample (`name{labels}`) in a scrape, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  it('are off unless configured, and need their token', async () => {
    const off = await start();
    expect((await scrape(off.server.baseUrl)).status).toBe(404);

    const on = await start({ settings: { metrics: { token: TOKEN } } });
    expect((await scrape(on.server.baseUrl, '')).status).toBe(401);
    expect((await scrape(on.server.baseUrl, `${TOKEN}x`)).status).toBe(401);
    const ok = await scrape(on.server.baseUrl);
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.text).toMatch(/^# HELP hushdrop_uploads_total /m);
    expect(ok.text).toMatch(/^process_cpu_seconds_total /m);
  });

  it('count uploads and bytes, refusals by reason, parts sessions and request durations', async () => {
    const { server } = await start({ maxUploadBytes: 5000, settings: { metrics: { token: TOKEN } } });
    const one = (url: string, bytes: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
      post(url, form({ encrypt: 'false', file: { bytes, name: 'f.bin' } }), headers);
    const legacy = await one(`${server.baseUrl}/v1/Upload?sub=api`, randomBytesOf(1000, 1));
    const current = await one(`${server.apiUrl}/v1/Upload`, randomBytesOf(2000, 2));
    expect([legacy.status, current.status]).toEqual([200, 200]);
    expect((await one(`${server.apiUrl}/v1/Upload`, randomBytesOf(6000, 3))).status).toBe(413);
    const wrong = { Authorization: `Basic ${Buffer.from('nobody:nothing').toString('base64')}` };
    expect((await one(`${server.apiUrl}/v1/Upload`, bytesOf('x'), wrong)).status).toBe(401);

    const parts = new PartsClient(server);
    const fields = { encrypt: 'false', partsTotal: '300', fileName: 'p.bin' };
    const finished = await parts.start(fields);
    expect(finished.status).toBe(201);
    expect((await parts.put(finished.json.id, 0, randomBytesOf(300, 4))).status).toBe(204);
    expect((await parts.done(finished.json.id)).status).toBe(200);
    const aborted = await parts.start(fields);
    expect((await parts.abort(aborted.json.id)).status).toBe(204);

    const { text } = await scrape(server.baseUrl);
    expect(sample(text, 'hushdrop_uploads_total{variant="legacy"}')).toBe(1);
    expect(sample(text, 'hushdrop_uploads_total{variant="current"}')).toBe(2);
    expect(sample(text, 'hushdrop_upload_bytes_total{variant="legacy"}')).toBe(1000);
    expect(sample(text, 'hushdrop_upload_bytes_total{variant="current"}')).toBe(2300);
    expect(sample(text, 'hushdrop_refusals_total{reason="too-large"}')).toBe(1);
    expect(sample(text, 'hushdrop_refusals_total{reason="unauthorized"}')).toBe(1);
    expect(sample(text, 'hushdrop_parts_sessions_total{event="started"}')).toBe(2);
    expect(sample(text, 'hushdrop_parts_sessions_total{event="finished"}')).toBe(1);
    expect(sample(text, 'hushdrop_parts_sessions_total{event="aborted"}')).toBe(1);
    expect(sample(text, 'hushdrop_request_duration_seconds_count{route="upload",status="200"}')).toBe(2);
    expect(
      sample(text, 'hushdrop_request_duration_seconds_bucket{le="+Inf",route="parts-put",status="204"}'),
    ).toBe(1);
    expect(sample(text, 'hushdrop_store_errors_total')).toBeUndefined();
    // Nothing that names an upload or a client.
    for (const name of [legacy.json.result.fileName, current.json.result.fileName, '127.0.0.1'])
      expect(text).not.toContain(name);
  });

  it('count the store’s failures by operation and kind', async () => {
    const s3 = await s3ForTestServer();
    let settings: Partial<ServerSettings> = {};
    if (s3) {
      // A store that does not answer: a port nothing listens on.
      const closed = createServer().listen(0, '127.0.0.1');
      await new Promise((resolve) => closed.once('listening', resolve));
      const port = (closed.address() as { port: number }).port;
      await new Promise((resolve) => closed.close(resolve));
      settings = { s3: { ...s3, endpoint: `http://127.0.0.1:${port}`, maxAttempts: 1 } };
    }
    const broken = await start({ settings: { ...settings, metrics: { token: TOKEN } } });
    // On disk: the folder the bytes go to is gone.
    if (!s3) await rm(join(broken.dataDir, 'files'), { recursive: true });
    const res = await post(
      `${broken.server.apiUrl}/v1/Upload`,
      form({ encrypt: 'false', file: { bytes: randomBytesOf(100, 5), name: 'f.bin' } }),
    );
    expect(res.status).toBe(503);
    expect((await fetch(`${broken.server.baseUrl}/_hushdrop/health`)).status).toBe(503);
    const { text } = await scrape(broken.server.baseUrl);
    expect(sample(text, 'hushdrop_store_errors_total{operation="blobs.put",kind="unavailable"}')).toBe(1);
    expect(sample(text, 'hushdrop_store_errors_total{operation="check",kind="unavailable"}')).toBe(1);
    expect(sample(text, 'hushdrop_refusals_total{reason="unavailable"}')).toBe(2);
  });
});
