// Runs with the e2e suite: it needs the built extensions, as `npm start --no-build` does.
// `npm start` fails cleanly: one sentence, and nothing it started is left running (the reference
// server's port is free again, the browser it launched is gone).
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const tmp = mkdtempSync(join(tmpdir(), 'hushdrop-start-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** True when nothing listens on the port any more (it can be taken again). */
async function portIsFree(port: number): Promise<boolean> {
  const s = createServer();
  return new Promise((resolve) => {
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.mjs', '--no-build', ...args], {
    env: { ...process.env, HEADLESS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('a missing Chromium gets one sentence naming the install command, and nothing starts', async () => {
  const port = await freePort();
  const run = start([], { CHROME_PATH: join(tmp, 'no-chromium'), PORT: String(port) });
  expect(await run.exited).toBe(1);
  expect(run.err().trim()).toBe(
    `Chromium was not found at ${join(tmp, 'no-chromium')}: install it with \`apt-get install chromium\` (or set CHROME_PATH).`,
  );
  expect(run.out()).not.toContain('[server]');
});

it('a missing Firefox gets one sentence naming the install command', async () => {
  const run = start(['--firefox'], { FIREFOX_PATH: join(tmp, 'no-firefox') });
  expect(await run.exited).toBe(1);
  expect(run.err().trim()).toBe(
    `Firefox was not found at ${join(tmp, 'no-firefox')}: install it with \`apt-get install firefox-esr\` (or set FIREFOX_PATH).`,
  );
});

it('a browser that fails to start: one sentence, and the server it had started is stopped', async () => {
  const port = await freePort();
  const run = start([], { CHROME_PATH: '/bin/false', PORT: String(port) });
  expect(await run.exited).toBe(1);
  expect(run.out()).toContain(`upload_url=http://127.0.0.1:${port}/u`);
  expect(run.err().trim().split('\n')).toHaveLength(1);
  expect(run.err()).toMatch(/^Chromium at \/bin\/false did not start: /);
  expect(await portIsFree(port)).toBe(true);
});

it('interrupted while the browser starts: the server and the browser are stopped', async () => {
  // A "browser" that never answers: it writes its pid and waits.
  const pidFile = join(tmp, 'browser.pid');
  const fake = join(tmp, 'slow-browser.sh');
  writeFileSync(fake, `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 600\n`);
  chmodSync(fake, 0o755);
  const port = await freePort();
  const run = start(['--firefox'], { FIREFOX_PATH: fake, PORT: String(port) });
  let browserPid = 0;
  await expect
    .poll(
      () => {
        try {
          browserPid = Number(readFileSync(pidFile, 'utf8'));
        } catch {}
        return browserPid;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  expect(await portIsFree(port)).toBe(false);
  (run.child as ChildProcess).kill('SIGINT');
  expect(await run.exited).toBe(130);
  expect(await portIsFree(port)).toBe(true);
  expect(alive(browserPid)).toBe(false);
});
