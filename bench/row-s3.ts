// Row k: a 1 GiB upload through the Hushdrop server into S3-compatible storage (the single-node Ceph
// of `npm run ceph`), against the same bytes put straight into the same store by the S3 client
// (lib-storage, with the server's own part size and parts in flight). Both read the same file on disk;
// curl sends it to the server. Also the server's peak memory during its uploads over the file's size.
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DeleteObjectsCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { treeMemory } from '../devkit';
import { S3_DEFAULTS } from '../server/storage/s3-config';
import { sampler } from './chromium';
import { endsWithBench, now, run, stop } from './common';
import { type BenchServer, startBenchServer } from './server';

export interface S3Result {
  /** ms per round: curl → server → store. */
  server: number[];
  /** ms per round: lib-storage straight into the store. */
  direct: number[];
  /** Per server round: peak RSS of the server's processes minus their RSS before the upload. */
  extraRss: number[];
  idleRss: number[];
  /** Ceph's start, ms. */
  storeStartMs: number;
}

const BUCKET = 'bench';

/** `npm run ceph` in a process of its own; resolves with the variables it prints once it serves. */
async function startStore(): Promise<{ process: ChildProcess; env: Record<string, string>; ms: number }> {
  const t0 = now();
  const child = endsWithBench(
    spawn(process.execPath, ['--import', 'tsx', 'scripts/ceph.ts'], {
      env: { ...process.env, BUCKET },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const env: Record<string, string> = {};
  await new Promise<void>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
      if (m) env[m[1]!] = m[2]!;
      if (env.AWS_SECRET_ACCESS_KEY) done();
    });
    child.once('exit', (code) => fail(new Error(`row k: npm run ceph exited (${code}) before it served`)));
  });
  return { process: child, env, ms: now() - t0 };
}

function clientFor(env: Record<string, string>): S3Client {
  return new S3Client({
    endpoint: env.AWS_ENDPOINT_URL_S3!,
    region: env.AWS_REGION!,
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Every key in the bucket with its size. */
async function objects(s3: S3Client): Promise<{ key: string; size: number }[]> {
  const out: { key: string; size: number }[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token }));
    for (const o of page.Contents ?? []) out.push({ key: o.Key!, size: o.Size ?? 0 });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}

/** Empties the bucket (the OSD keeps objects in memory). */
async function empty(s3: S3Client): Promise<void> {
  const keys = (await objects(s3)).map((o) => ({ Key: o.key }));
  for (let i = 0; i < keys.length; i += 1000)
    await s3.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: keys.slice(i, i + 1000) } }));
}

/** One upload of `path` through the server with curl (plain, current variant), timed. */
async function throughServer(server: BenchServer, path: string, s3: S3Client, bytes: number) {
  const rss = () => treeMemory(server.process.pid!).total;
  const idle = rss();
  const sample = sampler(rss, 100);
  const t0 = now();
  const answer = await run('curl', [
    '-sS',
    '-H',
    'Expect:',
    '-F',
    `file=@${path}`,
    `${server.apiUrl}/v1/Upload`,
  ]);
  const ms = now() - t0;
  const peak = Math.max(...sample.stop());
  if (!JSON.parse(answer).result?.url) throw new Error(`row k: the server answered ${answer.slice(0, 200)}`);
  // The file is in the store whole (the records beside it are small).
  if (!(await objects(s3)).some((o) => o.size === bytes))
    throw new Error(`row k: no object of ${bytes} bytes in the bucket after the server's upload`);
  return { ms, extra: peak - idle, idle };
}

/** The same file straight into the store, as the server's store puts it (its part size and parallelism). */
async function direct(s3: S3Client, path: string, key: string, bytes: number): Promise<number> {
  const t0 = now();
  await new Upload({
    client: s3,
    params: { Bucket: BUCKET, Key: key, Body: createReadStream(path) },
    partSize: S3_DEFAULTS.partSize,
    queueSize: S3_DEFAULTS.partsInFlight,
  }).done();
  const ms = now() - t0;
  const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
  if (head.ContentLength !== bytes)
    throw new Error(`row k: the direct upload stored ${head.ContentLength} bytes`);
  return ms;
}

export async function s3Row(tmp: string, path: string, bytes: number, reps: number): Promise<S3Result> {
  const store = await startStore();
  const s3 = clientFor(store.env);
  let server: BenchServer | undefined;
  try {
    server = await startBenchServer(join(tmp, 'server-s3'), undefined, {
      main: 'server/main.ts',
      env: { ...store.env, STORAGE_URL: `s3://${BUCKET}/` },
    });
    const result: S3Result = { server: [], direct: [], extraRss: [], idleRss: [], storeStartMs: store.ms };
    // One untimed round of each first; then the order alternates, so neither always runs second.
    for (let r = -1; r < reps; r++) {
      const viaServer = async () => {
        const s = await throughServer(server!, path, s3, bytes);
        if (r >= 0) {
          result.server.push(s.ms);
          result.extraRss.push(s.extra);
          result.idleRss.push(s.idle);
        }
        await empty(s3);
      };
      const straight = async () => {
        const ms = await direct(s3, path, `direct-${r + 1}`, bytes);
        if (r >= 0) result.direct.push(ms);
        await empty(s3);
      };
      if (r % 2 === 0) {
        await viaServer();
        await straight();
      } else {
        await straight();
        await viaServer();
      }
    }
    return result;
  } finally {
    s3.destroy();
    await server?.close();
    await stop(store.process);
  }
}
