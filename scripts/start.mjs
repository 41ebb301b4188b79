// `npm start` (Chromium) or `npm start -- --firefox`: build the extension, start the reference
// server, and open the browser with Hushdrop loaded in a fresh profile that already points at
// that server. `--no-build` uses the build already in .output.
//
// Whatever happens — a missing browser, a failed launch, Ctrl+C, the window closed — everything
// this script started (server, browser, temporary folders) is stopped and removed, and a failure
// is one sentence, not a stack trace. Runs under tsx (`npm start`), so it can use the testkit's
// browser launchers.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const firefox = args.includes('--firefox');
const build = !args.includes('--no-build');

/** A failure a person can act on: printed as its message alone. */
class StartError extends Error {}

const browserPath = firefox
  ? (process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr')
  : (process.env.CHROME_PATH ?? '/usr/bin/chromium');
const headless =
  process.env.HEADLESS === '1' ||
  (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY);

// What has been started, in the order it must be stopped.
const started = [];
let stopping;
function stopAll(code) {
  stopping ??= (async () => {
    for (const stop of started.reverse()) await stop().catch(() => {});
    process.exit(code);
  })();
  return stopping;
}
process.on('SIGINT', () => stopAll(130));
process.on('SIGTERM', () => stopAll(143));

function temporaryDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  started.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function buildExtension() {
  console.log(`Building the extension for ${firefox ? 'Firefox' : 'Chromium'}…`);
  const r = spawnSync(
    process.execPath,
    ['node_modules/wxt/bin/wxt.mjs', 'build', ...(firefox ? ['-b', 'firefox'] : [])],
    {
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new StartError('The extension did not build; the messages above say why.');
}

/** Starts the reference server as a child (one process: node with tsx's loader); resolves its addresses. */
async function startServer() {
  const dataDir = temporaryDir('hushdrop-server-');
  const server = spawn(process.execPath, ['--import', 'tsx', 'tests/server/main.ts'], {
    env: { ...process.env, PORT: process.env.PORT ?? '8787', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  });
  const addresses = await new Promise((res, rej) => {
    const found = {};
    createInterface({ input: server.stdout }).on('line', (line) => {
      console.log(`[server] ${line}`);
      const m = /^(base_url|api_url|upload_url)=(.+)$/.exec(line);
      if (m) found[m[1]] = m[2];
      if (found.base_url && found.api_url && found.upload_url) res(found);
    });
    server.on('exit', (code) =>
      rej(
        new StartError(
          `The reference server stopped at start (exit ${code}); is port ${process.env.PORT ?? 8787} taken?`,
        ),
      ),
    );
  });
  return { addresses, dataDir };
}

async function profileFor(a) {
  const { newProfile } = await import('../lib/settings/index.ts');
  const profile = newProfile('local', 'Reference server (npm start)', {
    variant: 'current',
    baseUrl: a.base_url,
    apiUrl: a.api_url,
    uploadUrl: a.upload_url,
  });
  return { profiles: [profile], activeProfileId: 'local' };
}

async function openChromium(settings) {
  const { launchExtension } = await import('../tests/testkit/chromium.ts');
  const browser = await launchExtension({ headless, executablePath: browserPath, handleSignals: false });
  started.push(() => browser.close());
  await browser.setSettings(settings);
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  await page.goto(browser.url('upload.html'));
  browser.ctx.on('close', () => stopAll(0));
  return { upload: browser.url('upload.html'), options: browser.url('options.html') };
}

async function openFirefox(settings) {
  const { launchFirefox } = await import('../tests/testkit/firefox.ts');
  // Interrupted while Firefox starts: the launch is abandoned and stops the process it spawned.
  const launching = new AbortController();
  const launch = launchFirefox({ headless, executablePath: browserPath, signal: launching.signal });
  const cancel = async () => {
    launching.abort();
    await launch.then((fx) => fx.close()).catch(() => {});
  };
  started.push(cancel);
  const fx = await launch;
  started.splice(started.indexOf(cancel), 1, () => fx.close());
  await fx.setSettings(settings);
  await fx.openUrl(fx.url('upload.html'));
  fx.process.once('exit', () => stopAll(0));
  return { upload: fx.url('upload.html'), options: fx.url('options.html') };
}

try {
  // Checked before anything starts, so a missing browser leaves nothing behind.
  if (!existsSync(browserPath))
    throw new StartError(
      firefox
        ? `Firefox was not found at ${browserPath}: install it with \`apt-get install firefox-esr\` (or set FIREFOX_PATH).`
        : `Chromium was not found at ${browserPath}: install it with \`apt-get install chromium\` (or set CHROME_PATH).`,
    );
  if (build) buildExtension();
  const { addresses, dataDir } = await startServer();
  if (headless) console.log('No display found (or HEADLESS=1): the browser runs headless.');
  const pages = await (firefox ? openFirefox : openChromium)(await profileFor(addresses)).catch((err) => {
    throw new StartError(
      `${firefox ? 'Firefox' : 'Chromium'} at ${browserPath} did not start: ${firstLine(err)}`,
    );
  });
  console.log(`
Hushdrop is running in ${firefox ? 'Firefox' : 'Chromium'}.
  upload page   ${pages.upload}
  settings      ${pages.options}
  server        ${addresses.api_url} (data in ${dataDir})
Close the browser window${headless ? ' or press Ctrl+C' : ''} to stop.`);
} catch (err) {
  console.error(err instanceof StartError ? err.message : `npm start failed: ${firstLine(err)}`);
  await stopAll(1);
}

function firstLine(err) {
  return String(err?.message ?? err).split('\n')[0];
}
