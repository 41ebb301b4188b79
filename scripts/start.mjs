// `npm start`: build the extension, start the reference server, and open Chromium with
// Hushdrop loaded in a fresh profile that already points at that server.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

console.log('Building the extension…');
run('npx', ['wxt', 'build']);

const dataDir = mkdtempSync(join(tmpdir(), 'hushdrop-server-'));
const server = spawn('npx', ['tsx', 'tests/server/main.ts'], {
  env: { ...process.env, PORT: process.env.PORT ?? '8787', DATA_DIR: dataDir },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const addresses = await new Promise((res, rej) => {
  const found = {};
  const lines = createInterface({ input: server.stdout });
  lines.on('line', (line) => {
    console.log(`[server] ${line}`);
    const m = /^(base_url|api_url|upload_url)=(.+)$/.exec(line);
    if (m) found[m[1]] = m[2];
    if (found.base_url && found.api_url && found.upload_url) res(found);
  });
  server.on('exit', (code) => rej(new Error(`The reference server stopped (exit ${code}).`)));
});

const headless =
  process.env.HEADLESS === '1' ||
  (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY);
if (headless) console.log('No display found (or HEADLESS=1): Chromium runs headless.');
const ext = resolve('.output/chrome-mv3');
const profile = mkdtempSync(join(tmpdir(), 'hushdrop-profile-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  headless,
  viewport: null,
  ignoreDefaultArgs: ['--disable-extensions'],
  args: [
    `--disable-extensions-except=${ext}`,
    `--load-extension=${ext}`,
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  ],
});
const sw = ctx.serviceWorkers()[0] ?? (await ctx.waitForEvent('serviceworker'));
const extId = new URL(sw.url()).host;
await sw.evaluate(
  (a) =>
    chrome.storage.local.set({
      settings: {
        server: {
          variant: 'current',
          baseUrl: a.base_url,
          apiUrl: a.api_url,
          uploadUrl: a.upload_url,
          username: '',
          token: '',
        },
      },
    }),
  addresses,
);
const page = ctx.pages()[0] ?? (await ctx.newPage());
await page.goto(`chrome-extension://${extId}/upload.html`);
console.log(`
Hushdrop is running.
  upload page   chrome-extension://${extId}/upload.html
  settings      chrome-extension://${extId}/options.html
  server        ${addresses.api_url} (data in ${dataDir})
Close the browser window${headless ? ' or press Ctrl+C' : ''} to stop.`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await ctx.close().catch(() => {});
  server.kill('SIGTERM');
  rmSync(profile, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
ctx.on('close', stop);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
