// The throwaway Ceph itself: `npm run ceph` serves S3 with the printed variables, and when the process
// that started the cluster dies without any chance to clean up (SIGKILL), no daemon and no folder is
// left behind.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';

function alive(pid: number): boolean {
  try {
    // A zombie (killed, not yet reaped by its parent) counts as gone.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('npm run ceph', () => {
  it('prints working settings, and leaves nothing behind when it is killed with SIGKILL', async () => {
    const cli = spawn(process.execPath, ['--import', 'tsx', 'scripts/ceph.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BUCKET: 'cli-bucket' },
    });
    const exited = new Promise((resolve) => cli.once('exit', resolve));
    try {
      const env: Record<string, string> = {};
      let folder = '';
      let stderr = '';
      cli.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        folder ||= /folder (\S+)\. Ctrl\+C stops it/.exec(stderr)?.[1] ?? '';
      });
      for await (const line of createInterface({ input: cli.stdout })) {
        const [name, ...value] = line.split('=');
        env[name!] = value.join('=');
        if (name === 'AWS_SECRET_ACCESS_KEY') break;
      }
      expect(env.STORAGE_URL).toBe('s3://cli-bucket/');
      expect(env.AWS_ENDPOINT_URL_S3).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The folder is named on stderr right after the variables.
      while (!folder) await new Promise((resolve) => cli.stderr.once('data', resolve));

      const s3 = new S3Client({
        endpoint: env.AWS_ENDPOINT_URL_S3,
        region: env.AWS_REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      await s3.send(new PutObjectCommand({ Bucket: 'cli-bucket', Key: 'k', Body: 'made by the CLI test' }));
      const answer = await s3.send(new GetObjectCommand({ Bucket: 'cli-bucket', Key: 'k' }));
      expect(await answer.Body!.transformToString()).toBe('made by the CLI test');
      s3.destroy();

      const pids = readFileSync(`${folder}/pids`, 'utf8').trim().split('\n').map(Number);
      expect(pids.length).toBeGreaterThanOrEqual(3);
      expect(pids.every(alive)).toBe(true);

      cli.kill('SIGKILL');
      await exited;
      // The watchdog notices the closed pipe, kills the daemons and removes the folder.
      while (existsSync(folder) || pids.some(alive)) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      cli.kill('SIGKILL');
    }
  });
});
