// Runs the product server as `npm run server` does (server/main.ts under tsx) in a process of its own, so
// tests can restart it, starve it of disk, or measure its memory without the test runner's in the figures.

import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ProductServer {
  child: ChildProcess;
  baseUrl: string;
  apiUrl: string;
  uploadUrl: string;
  /** Where it listens (`http://host:port`), which differs from baseUrl when a public URL is set. */
  listenUrl: string;
  /** Every line it printed so far (stdout and stderr). */
  output: string[];
  /** Sends SIGTERM (a graceful stop) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `server/main.ts` with `env` added to this process's environment (PORT=0 unless given), and resolves
 * once it printed its three addresses. `command` runs something else in front (e.g. `unshare … sh -c`):
 * it gets the node command line as its last arguments.
 */
export function startProductServer(
  env: Record<string, string>,
  wrap: (node: string[]) => string[] = (node) => node,
): Promise<ProductServer> {
  const [command, ...args] = wrap([process.execPath, '--import', 'tsx', join(root, 'server', 'main.ts')]);
  const child = spawn(command!, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', ACCESS_LOG: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const found: Record<string, string> = {};
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onLine = (line: string) => {
      output.push(line);
      const m = /^(base_url|api_url|upload_url)=(.+)$/.exec(line);
      if (m) found[m[1]!] = m[2]!;
      const listening = /listening on (\S+):(\d+)/.exec(line);
      if (listening) found.listen = `http://${listening[1]}:${listening[2]}`;
      if (found.base_url && found.api_url && found.upload_url && found.listen)
        resolve({
          child,
          baseUrl: found.base_url,
          apiUrl: found.api_url,
          uploadUrl: found.upload_url,
          listenUrl: found.listen,
          output,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    void exited.then((code) =>
      reject(new Error(`the server exited at start (${code}):\n${output.join('\n')}`)),
    );
  });
}

export interface ProductRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `server/main.ts <args>` to its end with `env` added (PORT=0, no access log, unless given) and stdin
 * closed; `user` runs it as that uid and gid (the test must be root for it).
 */
export function runProduct(
  args: string[],
  env: Record<string, string>,
  options: { user?: number; input?: string } = {},
): Promise<ProductRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, PORT: '0', ACCESS_LOG: 'off', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.user !== undefined ? { uid: options.user, gid: options.user } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  child.stdin!.end(options.input);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The peak resident memory of a process so far (VmHWM), in bytes. */
/**
 * How far this Node lets spent 64 KiB buffers (what a socket's reads are) pile up before it collects
 * them: the peak RSS growth of a process of the same Node that allocates and drops `totalBytes` of them.
 * A server that discards a body grows this much without holding anything: 39 MiB on Node 20.20 and 87
 * MiB on Node 24.21 for 2.5 GiB here, so a bound on a server's growth stands on this, measured in the
 * same run, and not on a figure taken on one runtime.
 */
export async function runtimeGarbagePeak(totalBytes = 2.5 * 2 ** 30): Promise<number> {
  const { execFile } = await import('node:child_process');
  const script = `const { readFileSync } = require('node:fs');
    const hwm = () => Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
    const start = hwm();
    let seen = 0;
    for (let i = 0; i < ${Math.ceil(totalBytes / 65536)}; i++) {
      const b = Buffer.allocUnsafeSlow(65536);
      b.fill(i & 255);
      seen ^= b[i & 65535];
    }
    process.stdout.write(String(hwm() - start + (seen & 0)));`;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['-e', script], (err, stdout) =>
      err ? reject(err) : resolve(Number(stdout)),
    ),
  );
}

export async function peakRss(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status);
  if (!kb) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kb[1]) * 1024;
}
