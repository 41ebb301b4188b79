// Row l: uploads over a real-sized link. A 256 MiB file to the reference server (HTTPS, HTTP/2 and
// HTTP/1.1 by ALPN) in a network namespace behind a token bucket (bench/netns.ts), at each rate:
// the upload page in client mode (the transport Hushdrop chooses for that server: streamed over
// HTTP/2) against curl --http2 -F of the same file to the same server through the same limit.
import { join } from 'node:path';
import { type BenchBrowser, launch } from './chromium';
import { createLimitedLink } from './netns';
import { curlUpload, extensionUpload, type UploadRun } from './row-upload';
import { startBenchServer } from './server';

export interface LinkRate {
  mbit: number;
  curl: number[];
  client: UploadRun[];
  /** The transports the client-mode uploads took ('stream' or 'disk', one per round). */
  transports: ('stream' | 'disk')[];
}

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
  const server = await startBenchServer(join(tmp, 'server-link'), '1', {
    netns: link.ns,
    env: { HOST: link.remoteIp },
  }).catch((err) => {
    link.close();
    throw err;
  });
  try {
    browser = await launch(extDir, [server.tls!.spkiSha256], [`https://${link.remoteIp}/*`]);
    const results: LinkRate[] = [];
    for (const mbit of rates) {
      await link.limit(mbit);
      log(`  ${mbit} Mbit/s`);
      const r: LinkRate = { mbit, curl: [], client: [], transports: [] };
      for (let i = 0; i < reps; i++) {
        r.curl.push(await curlUpload(server, path));
        server.clearFiles();
        const client = await extensionUpload(browser, server, path, 'client');
        // A streamed upload shows no "Encrypting" phase (row-upload.ts).
        r.transports.push(client.encryptMs === 0 ? 'stream' : 'disk');
        r.client.push(client);
        server.clearFiles();
      }
      results.push(r);
    }
    return results;
  } finally {
    await browser?.close();
    await server.close();
    link.close();
  }
}
