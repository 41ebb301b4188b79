// Small helpers shared by the bench rows: statistics, files of pseudo-random bytes, processes.
import { type ChildProcess, spawn } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

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

/**
 * Writes `size` pseudo-random bytes (an AES-CTR keystream: fast and incompressible) to `path`, a
 * mebibyte at a time, and returns their SHA-256.
 */
export async function writeRandomFile(path: string, size: number, seed = path): Promise<string> {
  const stream = createCipheriv('aes-128-ctr', createHash('md5').update(seed).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(8 * MIB);
  const hash = createHash('sha256');
  const file = await open(path, 'w');
  try {
    for (let written = 0; written < size; written += zeros.length) {
      const chunk = stream.update(zeros.subarray(0, Math.min(zeros.length, size - written)));
      hash.update(chunk);
      await file.write(chunk);
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
