// Row l: uploads over a real-sized link. A 256 MiB file to the reference server (HTTPS, HTTP/2 and
// HTTP/1.1 by ALPN) in a network namespace behind a token bucket (bench/netns.ts), at each rate:
// the upload page in client mode, the way Hushdrop chooses from what it measured (after three warm-up
// uploads from no figures: the stream twice, then the disk way it tries once), and the same upload the
// other way beside it, against curl --http2 -F of the same file to the same server through the
// same limit. Then the same against the product's own server, which takes uploads in parts (and so
// the upload goes in parts, each sent while the next is encrypted), against curl to it.
import { join } from 'node:path';
import type { OneRequestWay } from '../lib/upload/capabilities';
import { type BenchBrowser, launch } from './chromium';
import { MIB } from './common';
import { createLimitedLink } from './netns';
import { readRecords, recordsFor, samplesFor, sampleWritten, writeRecords } from './rates';
import { curlUpload, extensionUpload, type UploadRun } from './row-upload';
import { type BenchServer, startBenchServer, startHushdropBenchServer } from './server';

/** A person's first uploads to a server: two streams (one could be a cold start), then the disk way once. */
const WARM_UPS = 3;

export interface LinkRate {
  mbit: number;
  curl: number[];
  /** Client-mode uploads the way Hushdrop chose, one per round. */
  client: UploadRun[];
  /** The ways those took ('stream' or 'disk'). */
  transports: OneRequestWay[];
  /** The same upload sent the other way in each round (the figures set so, then put back). */
  other: UploadRun[];
  otherWays: OneRequestWay[];
  /** The ways the warm-up uploads took. */
  warmups: OneRequestWay[];
  /** What the figures held after the warm-ups, MiB/s: stream, disk send, encryption into the copy. */
  learned: { stream?: number; send?: number; encrypt?: number };
  /** The same upload to the product's server (it takes parts): curl, the client, and the parts it took each time. */
  hushdrop: { curl: number[]; client: UploadRun[]; parts: number[] };
}

/** A streamed upload shows no "Encrypting" phase (row-upload.ts). */
const wayOf = (run: UploadRun): OneRequestWay => (run.encryptMs === 0 ? 'stream' : 'disk');

/** Runs the row, or says why it was skipped (no root, no iproute2, no namespace). */
export async function linkRow(
  extDir: string,
  tmp: string,
  path: string,
  rates: number[],
  reps: number,
  log: (text: string) => void,
): Promise<LinkRate[] | { skipped: string }> {
  const link = await createLimitedLink();
  if ('skipped' in link) return link;
  let browser: BenchBrowser | undefined;
  let hushdrop: BenchServer | undefined;
  const server = await startBenchServer(join(tmp, 'server-link'), '1', {
    netns: link.ns,
    env: { HOST: link.remoteIp },
  }).catch((err) => {
    link.close();
    throw err;
  });
  try {
    hushdrop = await startHushdropBenchServer(join(tmp, 'server-link-hushdrop'), link.remoteIp, link.ns);
    browser = await launch(
      extDir,
      [server.tls!.spkiSha256, hushdrop.tls!.spkiSha256],
      [`https://${link.remoteIp}/*`],
    );
    // An extension page of its own, to read and set the figures from.
    const figuresPage = await browser.ctx.newPage();
    await figuresPage.goto(browser.url('uploads.html'));
    const origin = new URL(server.apiUrl).origin;
    /** One client-mode upload, returned once its rates are in the figures. */
    const upload = async (b: BenchBrowser) => {
      const before = samplesFor(await readRecords(figuresPage), origin);
      const run = await extensionUpload(b, server, path, 'client');
      server.clearFiles();
      await sampleWritten(figuresPage, origin, before);
      return run;
    };
    const results: LinkRate[] = [];
    for (const mbit of rates) {
      await link.limit(mbit);
      log(`  ${mbit} Mbit/s`);
      // Each link starts from no figures: what it chooses comes from this link alone.
      await writeRecords(figuresPage, recordsFor(origin, 'stream'));
      const r: LinkRate = {
        mbit,
        curl: [],
        client: [],
        transports: [],
        other: [],
        otherWays: [],
        warmups: [],
        learned: {},
        hushdrop: { curl: [], client: [], parts: [] },
      };
      for (let i = 0; i < WARM_UPS; i++) r.warmups.push(wayOf(await upload(browser)));
      const learned = await readRecords(figuresPage);
      const mib = (rate?: number) => (rate === undefined ? undefined : rate / MIB);
      r.learned = {
        stream: mib(learned.servers[origin]?.rates?.stream?.rate),
        send: mib(learned.servers[origin]?.rates?.send?.rate),
        encrypt: mib(learned.encrypt.teknik?.rate),
      };
      for (let i = 0; i < reps; i++) {
        r.curl.push(await curlUpload(server, path));
        server.clearFiles();
        const client = await upload(browser);
        r.transports.push(wayOf(client));
        r.client.push(client);
        // The other way: figures that send it so, then the learned ones back (with this round's).
        const kept = await readRecords(figuresPage);
        const otherWay: OneRequestWay = wayOf(client) === 'stream' ? 'disk' : 'stream';
        await writeRecords(figuresPage, recordsFor(origin, otherWay));
        const other = await upload(browser);
        await writeRecords(figuresPage, kept);
        if (wayOf(other) !== otherWay) throw new Error(`The upload meant to go the ${otherWay} way did not.`);
        r.other.push(other);
        r.otherWays.push(otherWay);
      }
      // The product's server: one untimed upload first (its connection, its worker), then rounds.
      const toHushdrop = async () => {
        const run = await extensionUpload(browser!, hushdrop!, path, 'client');
        hushdrop!.clearFiles();
        return { run, parts: hushdrop!.takePartsTaken() };
      };
      await toHushdrop();
      for (let i = 0; i < reps; i++) {
        r.hushdrop.curl.push(await curlUpload(hushdrop, path));
        hushdrop.clearFiles();
        hushdrop.takePartsTaken();
        const { run, parts } = await toHushdrop();
        r.hushdrop.client.push(run);
        r.hushdrop.parts.push(parts);
      }
      results.push(r);
    }
    return results;
  } finally {
    await browser?.close();
    await hushdrop?.close();
    await server.close();
    link.close();
  }
}
