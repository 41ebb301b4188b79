// Row d: the reference server's throughput with 8 concurrent 64 MiB uploads against the same 8
// uploads one at a time (curl -F from the same file on disk, to the current-variant endpoint).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MIB, now, run, writeRandomFile } from './common';
import type { BenchServer } from './server';

export interface ServerResult {
  bytes: number;
  sequential: number[];
  concurrent: number[];
}

function curl(server: BenchServer, path: string): Promise<string> {
  return run('curl', [
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-H',
    'Expect:',
    '-F',
    `file=@${path};type=application/octet-stream`,
    `${server.apiUrl}/v1/Upload`,
  ]);
}

export async function serverRow(server: BenchServer, tmp: string, reps: number): Promise<ServerResult> {
  const n = 8;
  const size = 64 * MIB;
  const path = join(tmp, 'server-64m.bin');
  await writeRandomFile(path, size);
  const result: ServerResult = { bytes: n * size, sequential: [], concurrent: [] };
  const check = (codes: string[]) => {
    if (codes.some((c) => c.trim() !== '200')) throw new Error(`uploads answered ${codes.join(', ')}`);
  };
  try {
    for (let r = 0; r < reps; r++) {
      let t0 = now();
      const codes: string[] = [];
      for (let i = 0; i < n; i++) codes.push(await curl(server, path));
      result.sequential.push(now() - t0);
      check(codes);
      server.clearFiles();
      t0 = now();
      check(await Promise.all(Array.from({ length: n }, () => curl(server, path))));
      result.concurrent.push(now() - t0);
      server.clearFiles();
    }
  } finally {
    rmSync(path, { force: true });
  }
  return result;
}
