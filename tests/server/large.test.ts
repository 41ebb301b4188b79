import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { get, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUploadUrl, startTestServer, type TestServer } from './test-helpers';

const MIB = 1024 * 1024;
const SIZE = 64 * MIB;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.stop();
});

/** Writes `size` random bytes to `path` a mebibyte at a time; returns their SHA-256. */
async function writeRandomFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const file = await open(path, 'w');
  try {
    for (let written = 0; written < size; written += MIB) {
      const chunk = randomBytes(Math.min(MIB, size - written));
      hash.update(chunk);
      await file.write(chunk);
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

/**
 * POSTs a multipart form whose file part streams from disk, with node:http so the client holds no more of
 * the file than the server does (fetch's FormData buffers more on its side).
 */
async function streamUpload(url: string, path: string, fields: Record<string, string>): Promise<any> {
  const boundary = `----hushdrop${Date.now()}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n`;
  head += 'Content-Type: application/octet-stream\r\n\r\n';
  const tail = `\r\n--${boundary}--\r\n`;
  const size = (await stat(path)).size;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(Buffer.byteLength(head) + size + Buffer.byteLength(tail)),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.write(head);
    const file = createReadStream(path);
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

/** Runs `work` while sampling the process RSS; returns how far above the starting RSS it went. */
async function rssGrowthDuring(work: () => Promise<void>): Promise<number> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - start;
}

describe('large uploads', () => {
  it('streams a 64 MiB upload to disk and back without holding it in memory', async () => {
    const source = join(t.dataDir, 'source.bin');
    const sourceHash = await writeRandomFile(source, SIZE);

    let result: any;
    const uploadGrowth = await rssGrowthDuring(async () => {
      result = (await streamUpload(currentUploadUrl(t.server), source, { encrypt: 'true', saveKey: 'true' }))
        .result;
    });
    expect(result.contentLength).toBe(SIZE);

    const downloadHash = createHash('sha256');
    const downloadGrowth = await rssGrowthDuring(
      () =>
        new Promise<void>((resolve, reject) => {
          get(result.url, (res) => {
            expect(res.headers['content-length']).toBe(String(SIZE));
            res.on('data', (chunk: Buffer) => downloadHash.update(chunk));
            res.on('end', resolve);
            res.on('error', reject);
          }).on('error', reject);
        }),
    );
    expect(downloadHash.digest('hex')).toBe(sourceHash);

    // Loose on purpose: buffering the file would add at least its size; streaming adds a few buffers.
    console.info(
      `RSS growth: upload ${(uploadGrowth / MIB).toFixed(1)} MiB, download ${(downloadGrowth / MIB).toFixed(1)} MiB`,
    );
    expect(uploadGrowth).toBeLessThan(SIZE);
    expect(downloadGrowth).toBeLessThan(SIZE);
  });
});
