// `npm start` (Chromium) or `npm start -- --firefox`: build the extension, start the Hushdrop server,
// and open the browser with Hushdrop loaded, both keeping their data between starts in the folders
// README names (scripts/start/places.ts). `--no-build` uses the build already in .output.
//
// The browser is the person's own: a persistent profile and the extension, nothing a test harness
// adds (scripts/start/chromium.ts). The extension ships no server, so npm start writes a profile for
// the one it started (Chromium: through a short headless run), again only when its addresses change.
//
// Whatever happens — a missing browser, a failed launch, Ctrl+C, the window closed — everything this
// script started is stopped, and a failure is one sentence, not a stack trace. Runs under tsx.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const firefox = args.includes('--firefox');
const build = !args.includes('--no-build');

/** A failure a person can act on: printed as its message alone. */
class StartError extends Error {}

const browserPath = firefox
  ? (process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr')
  : (process.env.CHROME_PATH ?? '/usr/bin/chromium');
const browserName = firefox ? 'Firefox' : 'Chromium';
const headless =
  process.env.HEADLESS === '1' ||
  (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY);
const asRoot = process.getuid?.() === 0;

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

function buildExtension() {
  console.log(`Building the extension for ${browserName}…`);
  const r = spawnSync(
    process.execPath,
    ['node_modules/wxt/bin/wxt.mjs', 'build', ...(firefox ? ['-b', 'firefox'] : [])],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) throw new StartError('The extension did not build; the messages above say why.');
}

/** The file `npm run server` runs (package.json: "server": "tsx <file>"). */
function serverEntry() {
  const script = JSON.parse(readFileSync('package.json', 'utf8')).scripts.server;
  const m = /^tsx\s+(\S+)$/.exec(script ?? '');
  if (!m)
    throw new StartError(`npm start cannot read how to start the server from package.json ("${script}").`);
  return m[1];
}

/** Starts the server as a child (node with tsx's loader); resolves its addresses. */
async function startServer(dataDir) {
  mkdirSync(dataDir, { recursive: true });
  const port = process.env.PORT ?? '8787';
  const server = spawn(process.execPath, ['--import', 'tsx', serverEntry()], {
    env: { ...process.env, PORT: port, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  });
  return new Promise((res, rej) => {
    const found = {};
    createInterface({ input: server.stdout }).on('line', (line) => {
      console.log(`[server] ${line}`);
      const m = /^(base_url|api_url|upload_url)=(.+)$/.exec(line);
      if (m) found[m[1]] = m[2];
      if (found.base_url && found.api_url && found.upload_url)
        res({ baseUrl: found.base_url, apiUrl: found.api_url, uploadUrl: found.upload_url });
    });
    server.on('exit', (code) =>
      rej(new StartError(`The server stopped at start (exit ${code}); is port ${port} taken?`)),
    );
  });
}

/** What npm start last wrote into the browser's settings, so that it writes only when that changes. */
function markerFile(home) {
  return join(home, `npm-start-${firefox ? 'firefox' : 'chromium'}.json`);
}
function needsSettings(home, addresses) {
  const file = markerFile(home);
  return !existsSync(file) || readFileSync(file, 'utf8') !== JSON.stringify(addresses);
}

async function openChromium(where, addresses) {
  const chromium = await import('./start/chromium.ts');
  const { withStartProfile } = await import('./start/settings.ts');
  const { SETTINGS_VERSION } = await import('../lib/settings/index.ts');
  const holder = chromium.profileHolder(where.chromium);
  if (holder)
    throw new StartError(
      `A Chromium (process ${holder}) already runs with npm start's profile in ${where.chromium}: close it first.`,
    );
  chromium.installBuild(resolve('.output/chrome-mv3'), where.chromiumExtension);
  const options = {
    executable: browserPath,
    profile: where.chromium,
    extension: where.chromiumExtension,
    headless,
    asRoot,
    remoteDebugging: process.env.HUSHDROP_REMOTE_DEBUGGING === '1',
  };
  const page = (path) =>
    `chrome-extension://${chromium.unpackedExtensionId(where.chromiumExtension)}/${path}`;
  try {
    if (needsSettings(where.home, addresses)) {
      console.log(`Pointing the extension at ${addresses.apiUrl} (a short headless start of the profile)…`);
      await chromium.writeSettings(
        options,
        `${addresses.baseUrl}/`,
        (s, v) => withStartProfile(s, v, addresses),
        SETTINGS_VERSION,
      );
      writeFileSync(markerFile(where.home), JSON.stringify(addresses));
    }
    // The browser opens on the server's own page. Chromium blocks an extension page named on its
    // command line (it is not web-accessible), and a person types or clicks their way there.
    const browser = await chromium.launchChromium(options, `${addresses.baseUrl}/`);
    started.push(() => chromium.stopProcess(browser));
    browser.once('exit', () => stopAll(0));
    const devtools =
      options.headless || options.remoteDebugging ? chromium.debuggingEndpoint(where.chromium) : undefined;
    return { upload: page('upload.html'), options: page('options.html'), pid: browser.pid, devtools };
  } catch (err) {
    throw new StartError(`Chromium at ${browserPath} did not start: ${firstLine(err)}`);
  }
}

async function openFirefox(where, addresses) {
  const { launchFirefox } = await import('./start/firefox.ts');
  const { withStartProfile } = await import('./start/settings.ts');
  const { SETTINGS_VERSION } = await import('../lib/settings/index.ts');
  // Interrupted while Firefox starts: the launch is abandoned and stops the process it spawned.
  const launching = new AbortController();
  const launch = launchFirefox({
    executable: browserPath,
    profile: where.firefox,
    extension: resolve('.output/firefox-mv2'),
    headless,
    signal: launching.signal,
  });
  const cancel = async () => {
    launching.abort();
    await launch.then((fx) => fx.close()).catch(() => {});
  };
  started.push(cancel);
  let fx;
  try {
    fx = await launch;
    started.splice(started.indexOf(cancel), 1, () => fx.close());
    if (needsSettings(where.home, addresses)) {
      await fx.updateSettings((s, v) => withStartProfile(s, v, addresses), SETTINGS_VERSION);
      writeFileSync(markerFile(where.home), JSON.stringify(addresses));
    }
    await fx.open(fx.url('upload.html'));
    // Without a window, the way to see the product is to drive it: Firefox takes one remote
    // session at a time, so npm start gives its own up.
    if (headless) await fx.release();
  } catch (err) {
    throw new StartError(`Firefox at ${browserPath} did not start: ${firstLine(err)}`);
  }
  fx.process.once('exit', () => stopAll(0));
  return {
    upload: fx.url('upload.html'),
    options: fx.url('options.html'),
    pid: fx.process.pid,
    marionette: headless ? fx.marionettePort : undefined,
  };
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
  const { places } = await import('./start/places.ts');
  const where = places();
  const dataDir = process.env.DATA_DIR || where.server;
  const addresses = await startServer(dataDir);
  // Said first, so that a person without a display knows what the addresses below are good for.
  if (headless)
    console.log(
      `No display found (or HEADLESS=1): ${browserName} runs headless, with no window. That is for a program to drive it (the ${
        firefox ? 'Marionette' : 'DevTools'
      } address below); to use Hushdrop yourself, run npm start where there is a display.`,
    );
  if (asRoot && !firefox)
    console.log(
      'Running as root: Chromium starts only without its sandbox (--no-sandbox) then. Run npm start as an ordinary user to keep the sandbox.',
    );
  const pages = await (firefox ? openFirefox : openChromium)(where, addresses);
  console.log(`
Hushdrop is running in ${browserName} (process ${pages.pid}).
  upload page   ${pages.upload}${headless ? ' (these pages open only inside that browser)' : firefox ? '' : ' (or the Hushdrop button in the toolbar)'}
  settings      ${pages.options}
  server        ${addresses.apiUrl}
  kept in       ${where.home} (browser profile${dataDir === where.server ? ' and server data' : `; server data in ${dataDir}`})
${
  pages.devtools
    ? `  DevTools      ${pages.devtools} (any program on this machine can drive the browser there:
                chrome://inspect in another Chromium, or Playwright's connectOverCDP)
`
    : ''
}${
  pages.marionette
    ? `  Marionette    127.0.0.1:${pages.marionette} (a program on this machine can drive the browser there:
                geckodriver --connect-existing --marionette-port ${pages.marionette}, or WebDriver BiDi)
`
    : ''
}${headless ? 'Press Ctrl+C to stop.' : `Close the browser window to stop.`}`);
} catch (err) {
  // Interrupted: the sentence would only say that it was.
  if (!stopping)
    console.error(err instanceof StartError ? err.message : `npm start failed: ${firstLine(err)}`);
  await stopAll(1);
}

function firstLine(err) {
  return String(err?.message ?? err).split('\n')[0];
}
