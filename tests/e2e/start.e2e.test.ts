// Runs with the e2e suite: it needs the built extensions, as `npm start --no-build` does.
// `npm start` is a product start: a persistent browser profile and server data folder (under
// HUSHDROP_HOME here, a temporary folder), and a browser with only the flags a person's own has.
// It fails cleanly: one sentence, and nothing it started is left running.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { Marionette } from '../../devkit/marionette';
import { eceCiphertextSize } from '../../lib/crypto';
import { debuggingEndpoint, settled } from '../../scripts/start/chromium';
import { ChromiumPage } from './driver/chromium';
import { countUploads } from './support/history';
import { submitFile } from './support/uploads';

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
    env: { ...process.env, DEBUG: '', HEADLESS: '1', HUSHDROP_HOME: join(tmp, 'home-unused'), ...env },
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

/** Switches of test harnesses (ours and Playwright's) that a person's browser never has. */
const TEST_SWITCHES = [
  '--disable-popup-blocking',
  '--safebrowsing-disable-auto-update',
  '--disable-client-side-phishing-detection',
  '--disable-component-update',
  '--password-store=basic',
  '--use-mock-keychain',
  '--enable-automation',
  '--remote-debugging-pipe',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-quic',
  '--disable-field-trial-config',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-back-forward-cache',
  '--disable-breakpad',
  '--disable-default-apps',
  '--disable-dev-shm-usage',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-prompt-on-repost',
  '--disable-renderer-backgrounding',
  '--force-color-profile=srgb',
  '--metrics-recording-only',
  '--no-service-autorun',
  '--allow-pre-commit-input',
  '--disable-search-engine-choice-screen',
  '--unsafely-disable-devtools-self-xss-warnings',
  '--enable-unsafe-swiftshader',
  '--disable-infobars',
];

/** The command line of a running process, one argument per entry. */
const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

/** Starts npm start with `env`, waits until it runs, and connects to its browser. */
async function startAndConnect(env: Record<string, string>) {
  const run = start([], env);
  try {
    return await connect(run, env);
  } catch (err) {
    // Nothing it started outlives the test.
    run.child.kill('SIGINT');
    await run.exited;
    throw err;
  }
}

async function connect(run: ReturnType<typeof start>, env: Record<string, string>) {
  await expect
    .poll(() => run.out() + run.err(), { timeout: 180_000 })
    .toMatch(/Hushdrop is running in Chromium \(process \d+\)|did not start|failed/);
  expect(run.err()).toBe('');
  const pid = Number(/Hushdrop is running in Chromium \(process (\d+)\)/.exec(run.out())![1]);
  const upload = /upload page\s+(\S+)/.exec(run.out())![1]!;
  const profile = join(env.HUSHDROP_HOME!, 'chromium');
  await expect.poll(() => debuggingEndpoint(profile)).toBeDefined();
  const endpoint = debuggingEndpoint(profile)!;
  const id = new URL(upload).host;
  await expect.poll(() => settled(endpoint, id), { timeout: 60_000 }).toBe(true);
  const browser = await chromium.connectOverCDP(endpoint);
  return { run, pid, upload, browser, ctx: browser.contexts()[0]! };
}

it('twice in a row: an upload made in the first is still listed in the second; a person’s flags only', async () => {
  const home = join(tmp, 'home');
  const port = await freePort();
  // The test drives the browser over the DevTools protocol: that one switch is there because it asks.
  const env = { HUSHDROP_HOME: home, PORT: String(port), HUSHDROP_REMOTE_DEBUGGING: '1' };
  const original = Buffer.from(`kept between starts ${Date.now()}\n`);

  const first = await startAndConnect(env);
  let link: string;
  try {
    const args = cmdline(first.pid);
    expect(args.filter((a) => TEST_SWITCHES.includes(a) || /^--disable-features=/.test(a))).toEqual([]);
    expect(args).toContain(`--user-data-dir=${join(home, 'chromium')}`);
    expect(args).toContain(`--load-extension=${join(home, 'chromium-extension')}`);
    expect(args).toContain('--remote-debugging-port=0');
    const root = process.getuid?.() === 0;
    expect(args.includes('--no-sandbox')).toBe(root);
    if (root) expect(first.run.out()).toMatch(/Running as root: Chromium starts only without its sandbox/);
    expect(first.run.out()).toContain(`kept in       ${home} (browser profile and server data)`);
    // Headless (no display here) says what that is for, and that its pages open only in that browser.
    expect(first.run.out()).toMatch(/runs headless, with no window\. That is for a program to drive it/);
    expect(first.run.out()).toMatch(
      /upload page {3}chrome-extension:\S+ \(these pages open only inside that browser\)/,
    );

    const page = await first.ctx.newPage();
    await page.goto(first.upload);
    link = await submitFile(new ChromiumPage(page), {
      name: 'kept.txt',
      mimeType: 'text/plain',
      buffer: original,
    });
    // npm start's profile uses the authenticated format: its server's recipient page opens it.
    expect(link).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${port}/u/\\w+\\.txt#ece1\\.[A-Za-z0-9_-]{22}$`),
    );
    expect(await page.evaluate(countUploads)).toBe(1);
  } finally {
    first.run.child.kill('SIGINT');
  }
  expect(await first.run.exited).toBe(130);
  expect(alive(first.pid)).toBe(false);
  expect(await portIsFree(port)).toBe(true);

  const second = await startAndConnect(env);
  try {
    // The profile held no settings to write this time, so no headless start came first.
    expect(second.run.out()).not.toContain('Pointing the extension at');
    const list = await second.ctx.newPage();
    await list.goto(second.upload.replace('upload.html', 'uploads.html'));
    await list.locator('tbody tr', { hasText: 'kept.txt' }).waitFor();
    expect(await list.evaluate(countUploads)).toBe(1);
    // Its server was set up and tested by npm start: no welcome page asks for one.
    expect(second.ctx.pages().map((p) => p.url())).not.toContainEqual(
      expect.stringMatching(/\/welcome\.html$/),
    );
    // The server's data folder is the persistent one: the stored bytes (sealed records) are still there.
    const stored = readdirSync(join(home, 'server', 'files')).filter((f) => !f.endsWith('.part'));
    expect(stored.map((f) => statSync(join(home, 'server', 'files', f)).size)).toEqual([
      eceCiphertextSize(original.length),
    ]);
  } finally {
    second.run.child.kill('SIGINT');
  }
  expect(await second.run.exited).toBe(130);
});

it('Firefox with no display: says so, and a program can drive it at the Marionette address it prints', async () => {
  const env = { HUSHDROP_HOME: join(tmp, 'home-firefox'), PORT: String(await freePort()) };
  const run = start(['--firefox'], env);
  try {
    await expect
      .poll(() => run.out() + run.err(), { timeout: 180_000 })
      .toMatch(/Hushdrop is running in Firefox \(process \d+\)|did not start|failed/);
    expect(run.err()).toBe('');
    expect(run.out()).toMatch(
      /runs headless, with no window\. That is for a program to drive it \(the Marionette/,
    );
    const port = Number(/Marionette {4}127\.0\.0\.1:(\d+) /.exec(run.out())?.[1]);
    expect(port).toBeGreaterThan(0);
    const upload = /upload page\s+(moz-extension:\S+)/.exec(run.out())![1]!;
    // npm start gave up its own session: a new one is taken, and the upload page renders in it.
    const m = await Marionette.connect(port);
    try {
      await m.send('WebDriver:NewSession', { capabilities: {} });
      await m.send('WebDriver:Navigate', { url: upload });
      await expect
        .poll(
          async () =>
            (
              await m.send<{ value: boolean }>('WebDriver:ExecuteScript', {
                script: "return document.querySelector('#file') !== null;",
                args: [],
              })
            ).value,
          { timeout: 60_000 },
        )
        .toBe(true);
      await m.send('WebDriver:DeleteSession');
    } finally {
      m.close();
    }
  } finally {
    run.child.kill('SIGINT');
    await run.exited;
  }
});
