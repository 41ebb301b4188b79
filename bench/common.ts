// Small helpers shared by the bench rows: statistics and processes (large files come from the testkit).
import { type ChildProcess, spawn } from 'node:child_process';
import { MIB } from '../devkit';

export { GIB, MIB, writeRandomFile } from '../devkit';

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const now = () => performance.now();

export function fmt(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n);
}

/** MiB/s for `bytes` in `ms`. */
export const mibps = (bytes: number, ms: number) => bytes / MIB / (ms / 1000);

/** Runs a command to its end; resolves with its stdout, rejects on a non-zero exit. */
export function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} exited with ${code}: ${err.trim()}`)),
    );
  });
}

/** Stops a child process this bench started (by its own handle, never by name). */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Ends `child` when the bench's own process ends, also when the bench is stopped mid-row (the time
 * limit, Ctrl+C), which otherwise left servers and a Ceph cluster running.
 */
export function endsWithBench<T extends ChildProcess>(child: T): T {
  const end = () => child.kill('SIGTERM');
  process.on('exit', end);
  child.once('exit', () => process.off('exit', end));
  return child;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
