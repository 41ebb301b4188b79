// The server as a daemon: SIGHUP (logrotate's postrotate, `systemctl reload`) opens the access log again
// by its name, and every problem at start is one sentence on stderr that names the path or the setting,
// never a stack trace, before any address is printed.

import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmod, chown, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { type ProductServer, runProduct, startProductServer } from './product-cli';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
/**
 * As root, a folder the server may not write is one it runs as nobody beside; that needs nobody to be able
 * to run this Node and read the project (not so for a Node kept under /root, as scripts/test-node24.sh's).
 */
const nobodyRuns =
  !isRoot ||
  spawnSync(process.execPath, ['--import', 'tsx', '-e', '0'], {
    cwd: join(__dirname, '..', '..'),
    uid: NOBODY,
    gid: NOBODY,
    env: { ...process.env, HOME: tmpdir() },
  }).status === 0;
if (!nobodyRuns)
  console.warn(`daemon test: permission cases skipped: user nobody cannot run ${process.execPath} here`);

let scratch: string;
let server: ProductServer | undefined;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hushdrop-daemon-'));
});
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

describe('SIGHUP', () => {
  it('opens the access log again after logrotate moved it, and the server goes on', async () => {
    const log = join(scratch, 'access.log');
    server = await startProductServer({ DATA_DIR: join(scratch, 'data'), ACCESS_LOG: log });
    expect((await fetch(`${server.listenUrl}/_hushdrop/info`)).status).toBe(200);
    await until(
      async () => ((await readFile(log, 'utf8')).includes(' info 200 ') ? true : undefined),
      'a line',
    );

    // What logrotate does: move the file, then tell the server.
    await rename(log, `${log}.1`);
    const said = server.output.length;
    server.child.kill('SIGHUP');
    await until(async () => {
      if (server!.child.exitCode !== null || server!.child.signalCode !== null)
        throw new Error(`the server ended on SIGHUP:\n${server!.output.join('\n')}`);
      return server!.output.slice(said).some((l) => l.includes('opened again')) ? true : undefined;
    }, 'the server to say it opened the log again');
    expect((await fetch(`${server.listenUrl}/_hushdrop/health`)).status).toBe(200);
    await until(
      async () => ((await readFile(log, 'utf8').catch(() => '')).includes(' health 200 ') ? true : undefined),
      'the new file',
    );
    expect((await readFile(log, 'utf8')).trim().split('\n')).toHaveLength(1);
    const moved = await readFile(`${log}.1`, 'utf8');
    expect(moved).toContain(' info 200 ');
    expect(moved).not.toContain(' health ');
    expect(await server.stop()).toBe(0);
  });
});

/** Asserts that a start failed with exactly one sentence on stderr, before printing any address. */
function expectOneSentence(run: { code: number | null; stdout: string; stderr: string }, sentence: RegExp) {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).not.toMatch(/base_url=/);
  const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^hushdrop server: /);
  expect(lines[0]).toMatch(sentence);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

/** A folder the server's user may not write: root's own for a server run as nobody, else read-only. */
async function unwritableFolder(): Promise<{ path: string; user?: number }> {
  const path = join(scratch, 'locked');
  await mkdir(path);
  if (isRoot) {
    await chmod(scratch, 0o755);
    return { path, user: NOBODY };
  }
  await chmod(path, 0o500);
  return { path };
}

describe('a problem at start', () => {
  it.skipIf(!nobodyRuns)('is a data folder the server may not write, not a port to change', async () => {
    const { path, user } = await unwritableFolder();
    const data = join(path, 'data');
    const run = await runProduct([], { DATA_DIR: data, HOME: scratch }, { user });
    expectOneSentence(run, new RegExp(`The data folder ${data} cannot be used: permission denied \\(EACCES`));
    expect(run.stderr).toMatch(/DATA_DIR \(dataDir\)/);
    expect(run.stderr).not.toMatch(/listen|PORT/);
  });

  it('is an access log whose folder is missing or may not be written', async () => {
    const missing = join(scratch, 'no-such-folder', 'access.log');
    const run = await runProduct([], { DATA_DIR: join(scratch, 'data'), ACCESS_LOG: missing });
    expectOneSentence(
      run,
      new RegExp(
        `The access log ${missing} cannot be opened: its folder ${join(scratch, 'no-such-folder')} does not exist`,
      ),
    );
    expect(run.stderr).toMatch(/ACCESS_LOG \(accessLog\)/);

    if (!nobodyRuns) return;
    const { path, user } = await unwritableFolder();
    const data = join(scratch, 'data-of-nobody');
    await mkdir(data, { mode: 0o700 });
    if (user !== undefined) await chown(data, user, user);
    const refused = join(path, 'access.log');
    const denied = await runProduct([], { DATA_DIR: data, ACCESS_LOG: refused, HOME: scratch }, { user });
    expectOneSentence(denied, new RegExp(`The access log ${refused} cannot be opened: permission denied`));
  });

  it('is a config file that is not JSON, named by its line and column', async () => {
    const config = join(scratch, 'config.json');
    await writeFile(config, '{\n  "port": 8787\n  "host": "127.0.0.1"\n}\n');
    const run = await runProduct([], { CONFIG: config });
    expectOneSentence(
      run,
      new RegExp(`The config file ${config} is not valid JSON: line 3, column 3: a comma was expected`),
    );
  });

  it('is a TLS file that cannot be read, or a port in use', async () => {
    const cert = join(scratch, 'cert.pem');
    const tls = await runProduct([], {
      DATA_DIR: join(scratch, 'data'),
      TLS_CERT: cert,
      TLS_KEY: join(scratch, 'key.pem'),
    });
    expectOneSentence(
      tls,
      new RegExp(`The TLS certificate file \\(TLS_CERT, tls.certFile\\) ${cert} cannot be read`),
    );

    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as { port: number }).port;
    try {
      const busy = await runProduct([], { DATA_DIR: join(scratch, 'data'), PORT: String(port) });
      expectOneSentence(busy, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE.*PORT`));
    } finally {
      taken.close();
    }
  });
});
