// WebKit, as Debian ships it: WebKitWebDriver (webkit2gtk-driver) drives MiniBrowser, WebKitGTK's
// own small browser, on an Xvfb display of its own. The page-driving API the e2e scenarios use is
// built on this in tests/e2e/driver/webkit.ts. WebKit runs no extension: it is a recipient's browser.
//
// Everything it writes is under one temporary folder, removed on close: HOME and the XDG folders of
// the processes (MiniBrowser keeps its caches there), and the download folder, which WebKitGTK takes
// from XDG_DOWNLOAD_DIR in $XDG_CONFIG_HOME/user-dirs.dirs (as GLib reads it). A download from the
// network is written as `<name>.wkdownload` beside an empty `<name>`, and renamed onto it once
// complete; one a service worker answers is written to `<name>` itself (openDownloads tells when).
// MiniBrowser's window is never narrower than its toolbar (447 px); a GTK style sheet in the same
// folder lets the toolbar shrink, so the window, and the page's viewport, can be phone-sized. The
// page itself is drawn as usual (the style sheet touches no fonts).
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Memory, processTree, treeMemory } from './memory';
import { until } from './wait';
import { WebDriverSession } from './webdriver';

export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER_PATH =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const XVFB_PATH = process.env.XVFB_PATH ?? '/usr/bin/Xvfb';

/** A partial download's suffix: WebKitGTK writes `<name>.wkdownload` and renames it when done. */
export const PARTIAL_DOWNLOAD = '.wkdownload';

export interface WebKitOptions {
  /** Abandons a launch still under way (what it started is stopped). */
  signal?: AbortSignal;
}

/** Process groups started here and not yet stopped: stopped when Node exits, even mid-test. */
const running = new Set<number>();
process.once('exit', () => {
  for (const pgid of running) killGroup(pgid, 'SIGKILL');
});

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** The last of what each process started here wrote on stderr: read to explain a failed start. */
const stderrTail = new WeakMap<ChildProcess, string>();

/** Starts `command` as the leader of a new process group, so that stopping it stops its children. */
function start(command: string, args: string[], env: NodeJS.ProcessEnv, fds = 0): ChildProcess {
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'ignore', 'pipe', ...Array(fds).fill('pipe')];
  const child = spawn(command, args, { stdio, env, detached: true });
  running.add(child.pid!);
  stderrTail.set(child, '');
  child.stderr!.on('data', (b: Buffer) => {
    stderrTail.set(child, (stderrTail.get(child)! + b.toString()).slice(-2000));
  });
  return child;
}

async function stopGroup(child: ChildProcess): Promise<void> {
  const pgid = child.pid!;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    killGroup(pgid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(pgid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  // The group's other processes (MiniBrowser, its web and network processes) may outlive the leader.
  killGroup(pgid, 'SIGKILL');
  running.delete(pgid);
}

function exitedSaying(child: ChildProcess, what: string): string {
  const said = stderrTail.get(child)?.trim();
  return `${what} exited at start (code ${child.exitCode ?? child.signalCode})${said ? `: ${said}` : '.'}`;
}

/** Xvfb on the first free display: it writes the display's number to fd 3 once it accepts clients. */
async function startXvfb(signal?: AbortSignal): Promise<{ xvfb: ChildProcess; display: string }> {
  // Tall enough for a phone-sized viewport and the toolbar above it.
  const xvfb = start(
    XVFB_PATH,
    ['-displayfd', '3', '-screen', '0', '1920x1600x24', '-nolisten', 'tcp'],
    process.env,
    1,
  );
  let written = '';
  xvfb.stdio[3]!.on('data', (b: Buffer) => {
    written += b.toString();
  });
  const number = await until(
    async () => {
      if (xvfb.exitCode !== null || xvfb.signalCode !== null) throw new Error(exitedSaying(xvfb, 'Xvfb'));
      signal?.throwIfAborted();
      return written.endsWith('\n') ? written.trim() : undefined;
    },
    'Xvfb to open its display',
    60_000,
  );
  return { xvfb, display: `:${number}` };
}

/** A port nobody listens on now (WebKitWebDriver takes no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One MiniBrowser, driven through one WebDriver session. */
export class WebKitBrowser {
  constructor(
    readonly session: WebDriverSession,
    private readonly driver: ChildProcess,
    private readonly xvfb: ChildProcess,
    /** Everything this browser writes is under it. */
    readonly dir: string,
    readonly downloadsDir: string,
    /** The window MiniBrowser opened at start. */
    readonly home: string,
  ) {}

  /** WebKitWebDriver's process: MiniBrowser and WebKit's processes are below it. */
  get pid(): number {
    return this.driver.pid!;
  }

  memory(): Memory {
    return treeMemory(this.pid);
  }

  /**
   * The files under the download folder that a process of this browser has open: downloads being
   * written. A download a service worker answers is written in place (no `.wkdownload`), so an open
   * file is the one sign that it has not ended.
   */
  openDownloads(): Set<string> {
    const open = new Set<string>();
    for (const pid of processTree(this.pid)) {
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue; // gone since
      }
      for (const fd of fds) {
        try {
          const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
          if (target.startsWith(`${this.downloadsDir}/`)) open.add(target);
        } catch {
          // closed since
        }
      }
    }
    return open;
  }

  async close(): Promise<void> {
    await this.session.delete();
    await stopGroup(this.driver);
    await stopGroup(this.xvfb);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The environment of WebKitWebDriver, which MiniBrowser inherits: every folder under `dir`. */
function environment(dir: string, display: string, downloads: string): NodeJS.ProcessEnv {
  const folder = (name: string, mode?: number) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true, mode });
    return path;
  };
  const config = folder('config');
  writeFileSync(join(config, 'user-dirs.dirs'), `XDG_DOWNLOAD_DIR="${downloads}"\n`);
  mkdirSync(join(config, 'gtk-3.0'));
  writeFileSync(
    join(config, 'gtk-3.0', 'gtk.css'),
    'window * { min-width: 0; padding-left: 0; padding-right: 0; margin-left: 0; margin-right: 0; }\n',
  );
  const { WAYLAND_DISPLAY: _, DBUS_SESSION_BUS_ADDRESS: __, ...inherited } = process.env;
  return {
    ...inherited,
    DISPLAY: display,
    GDK_BACKEND: 'x11',
    HOME: folder('home'),
    XDG_CONFIG_HOME: config,
    XDG_DATA_HOME: folder('data'),
    XDG_CACHE_HOME: folder('cache'),
    XDG_RUNTIME_DIR: folder('runtime', 0o700),
    // No accessibility bus to find on a display without a desktop.
    NO_AT_BRIDGE: '1',
  };
}

/** Starts Xvfb, WebKitWebDriver, and MiniBrowser through a new session. */
export async function launchWebKit(options: WebKitOptions = {}): Promise<WebKitBrowser> {
  for (const [path, pkg] of [
    [WEBKIT_DRIVER_PATH, 'webkit2gtk-driver'],
    [MINIBROWSER_PATH, 'webkit2gtk-driver'],
    [XVFB_PATH, 'xvfb'],
  ] as const)
    if (!existsSync(path)) throw new Error(`${path} is missing: install it with \`apt-get install ${pkg}\`.`);
  const dir = mkdtempSync(join(tmpdir(), 'hushdrop-webkit-'));
  const downloads = join(dir, 'downloads');
  mkdirSync(downloads);
  const started: ChildProcess[] = [];
  try {
    const { xvfb, display } = await startXvfb(options.signal);
    started.push(xvfb);
    const port = await freePort();
    const driver = start(WEBKIT_DRIVER_PATH, [`--port=${port}`], environment(dir, display, downloads));
    started.push(driver);
    const url = `http://127.0.0.1:${port}`;
    await until(
      async () => {
        if (driver.exitCode !== null || driver.signalCode !== null)
          throw new Error(exitedSaying(driver, 'WebKitWebDriver'));
        options.signal?.throwIfAborted();
        const ready = await fetch(`${url}/status`, { signal: AbortSignal.timeout(10_000) })
          .then((r) => r.json())
          .then((j: any) => j?.value?.ready === true)
          .catch(() => false);
        return ready || undefined;
      },
      'WebKitWebDriver to listen',
      60_000,
    );
    const session = await WebDriverSession.create(url, {
      'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] },
      acceptInsecureCerts: false,
      timeouts: { script: 120_000, pageLoad: 120_000, implicit: 0 },
    });
    const home = await session.send<string>('GET', '/window');
    return new WebKitBrowser(session, driver, xvfb, dir, downloads, home);
  } catch (err) {
    for (const child of started.reverse()) await stopGroup(child);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
