// The reference upload server in a process of its own (so its work is not mixed with the bench's
// own), on a free loopback port (or another address in a network namespace), with its data in `dataDir`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { REFERENCE_SERVER_MAIN, serverSettings } from '../devkit';
import { makeTlsIdentity } from '../devkit/tls';
import { DEFAULT_UPLOAD } from '../lib/settings';
import { endsWithBench, stop } from './common';

export interface BenchServer {
  /** The data directory; stored uploads are the files in `<dataDir>/files`. */
  dataDir: string;
  /** In TLS mode: the certificate's path (curl --cacert) and SPKI hash (Chromium). */
  tls?: { certificatePath: string; spkiSha256: string };
  baseUrl: string;
  apiUrl: string;
  uploadUrl: string;
  process: ChildProcess;
  /** Deletes the stored upload files (the server forgets nothing, but the disk is freed). */
  clearFiles(): void;
  /** Paths of the stored upload files. */
  storedFiles(): string[];
  /** Parts the server took (its access log's `parts-put` lines answered 204) since the last call. */
  takePartsTaken(): number;
  close(): Promise<void>;
}

/**
 * `tls`: '1' for HTTPS with HTTP/2 and HTTP/1.1, 'http1' for HTTPS with HTTP/1.1 only. `other.main`
 * runs another server file (the product's `server/main.ts`), with `other.env` added to its environment.
 * `other.netns` runs it in that network namespace (`ip netns exec`, which execs the server: the child
 * is the server's own process), listening on `other.env.HOST`.
 */
export async function startBenchServer(
  dataDir: string,
  tls?: '1' | 'http1',
  other: {
    main?: string;
    env?: Record<string, string>;
    netns?: string;
    /** A TLS identity given to the server in `env` (the product's server prints no tls_ lines). */
    identity?: { certificatePath: string; spkiSha256: string };
  } = {},
): Promise<BenchServer> {
  const tsx = resolve('node_modules/.bin/tsx');
  const command = [tsx, other.main ? resolve(other.main) : REFERENCE_SERVER_MAIN];
  if (other.netns) command.unshift('ip', 'netns', 'exec', other.netns);
  const child = endsWithBench(
    spawn(command[0]!, command.slice(1), {
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: dataDir,
        TLS: other.identity ? '0' : (tls ?? '0'),
        ...other.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const lines: Record<string, string> = {};
  let partsTaken = 0;
  let tail = '';
  const countParts = (d: Buffer) => {
    const text = tail + d;
    const end = text.lastIndexOf('\n') + 1;
    partsTaken += text.slice(0, end).match(/ PUT parts-put-\S+ 204 /g)?.length ?? 0;
    tail = text.slice(end).slice(-4096);
  };
  await new Promise<void>((done, fail) => {
    let buffered = '';
    const onData = (d: Buffer) => {
      buffered += d;
      for (const m of buffered.matchAll(/^(base_url|api_url|upload_url|tls_cert|tls_spki)=(\S+)$/gm))
        lines[m[1]!] = m[2]!;
      if (lines.base_url && lines.api_url && lines.upload_url && (!tls || other.identity || lines.tls_spki)) {
        child.stdout!.off('data', onData);
        child.stdout!.on('data', countParts);
        done();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`reference server exited early (${code})`)));
  });
  const files = join(dataDir, 'files');
  return {
    dataDir,
    ...(other.identity
      ? { tls: other.identity }
      : tls
        ? { tls: { certificatePath: lines.tls_cert!, spkiSha256: lines.tls_spki! } }
        : {}),
    baseUrl: lines.base_url!,
    apiUrl: lines.api_url!,
    uploadUrl: lines.upload_url!,
    process: child,
    clearFiles() {
      for (const name of readdirSync(files)) rmSync(join(files, name), { force: true });
    },
    storedFiles: () => readdirSync(files).map((name) => join(files, name)),
    takePartsTaken() {
      const n = partsTaken;
      partsTaken = 0;
      return n;
    },
    close: () => stop(child),
  };
}

/**
 * The product's own server (server/main.ts, disk store) over HTTPS with HTTP/2, with a certificate
 * made for `host` (devkit/tls.ts), in network namespace `netns` when given. It takes uploads
 * in parts, so an encrypted upload to it goes in parts.
 */
export async function startHushdropBenchServer(
  dataDir: string,
  host: string,
  netns?: string,
): Promise<BenchServer> {
  mkdirSync(dataDir, { recursive: true });
  const id = await makeTlsIdentity(host);
  const certificatePath = join(dataDir, '..', `${basename(dataDir)}-cert.pem`);
  const keyPath = join(dataDir, '..', `${basename(dataDir)}-key.pem`);
  writeFileSync(certificatePath, id.certificatePem);
  writeFileSync(keyPath, id.keyPem, { mode: 0o600 });
  return startBenchServer(dataDir, '1', {
    main: 'server/main.ts',
    ...(netns ? { netns } : {}),
    env: { HOST: host, TLS_CERT: certificatePath, TLS_KEY: keyPath, ACCESS_LOG: 'stdout' },
    identity: { certificatePath, spkiSha256: id.spkiSha256 },
  });
}

/** One profile pointing at the bench server (current variant) with the given upload mode. */
export function benchSettings(server: BenchServer, mode: 'client' | 'none') {
  return serverSettings(server, 'current', {
    id: 'bench',
    name: 'Bench server',
    defaults: { ...DEFAULT_UPLOAD, mode },
  });
}
