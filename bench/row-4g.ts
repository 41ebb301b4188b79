// Row g (opt-in: `npm run bench:4g`, or BENCH_4G=1 with `npm run bench`): a 4 GiB file uploaded in
// client mode through the extension's upload page, streamed over HTTP/2 and the disk way over
// HTTP/1.1. Each stored copy is decrypted with the link's key and hashed as a stream, and must give
// the original's SHA-256; peak browser RAM over idle is reported as a fraction of the file.
import { join } from 'node:path';
import { decryptedHash } from '../devkit';
import type { BenchBrowser } from './chromium';
import { GIB, writeRandomFile } from './common';
import { extensionUpload } from './row-upload';
import type { BenchServer } from './server';

export interface BigUpload {
  transport: 'streamed, HTTP/2' | 'disk, HTTP/1.1';
  ms: number;
  extraRss: number;
  idleRss: number;
  /** The decrypted stored copy has the original's SHA-256. */
  decrypts: boolean;
}

export async function bigRow(
  b: BenchBrowser,
  servers: { http2: BenchServer; http1: BenchServer },
  tmp: string,
  size = 4 * GIB,
  log: (text: string) => void = () => {},
): Promise<BigUpload[]> {
  const path = join(tmp, 'upload-4g.bin');
  log(`  writing ${size / GIB} GiB`);
  const original = await writeRandomFile(path, size);
  const out: BigUpload[] = [];
  for (const [transport, server] of [
    ['streamed, HTTP/2', servers.http2],
    ['disk, HTTP/1.1', servers.http1],
  ] as const) {
    server.clearFiles();
    log(`  ${transport}: uploading`);
    const run = await extensionUpload(b, server, path, 'client');
    if ((run.encryptMs === 0) !== (transport === 'streamed, HTTP/2'))
      throw new Error(`row g: the ${transport} upload went the other way.`);
    const stored = server.storedFiles();
    if (stored.length !== 1) throw new Error(`row g: ${stored.length} stored files instead of 1.`);
    log(`  ${transport}: ${Math.round(run.ms / 1000)} s; hashing the decrypted stored copy`);
    const key = run.link.split('#')[1] ?? '';
    const decrypts = (await decryptedHash(stored[0]!, key)) === original;
    server.clearFiles();
    out.push({ transport, ms: run.ms, extraRss: run.extraRss, idleRss: run.idleRss, decrypts });
  }
  return out;
}
