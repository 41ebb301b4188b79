// A real S3-compatible store for tests, benchmarks and trying the server by hand: a single-node Ceph
// (Debian's ceph-mon, ceph-osd and radosgw, 16.2) in a temporary folder, with an S3 user.
//
//   const ceph = await startCeph();   // ceph.endpoint, ceph.accessKeyId, ceph.secretAccessKey
//   …
//   await ceph.stop();                // kills its daemons, removes the folder
//
// Whatever happens to the process that started it, no daemon outlives it (see ceph-process.ts).
// `startGateway(info)` adds another radosgw on the same cluster, one a test may stop, freeze and restart
// without disturbing the shared one.

import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cephConf } from './ceph-conf';
import { type Daemon, logTail, rssBytes, runTool, spawnDaemon, startWatchdog } from './ceph-process';

/** What a test needs to reach the cluster; plain data, so Vitest can hand it from globalSetup to tests. */
export interface CephInfo {
  /** The cluster's folder (its ceph.conf, logs, sockets). */
  dir: string;
  conf: string;
  /** The S3 endpoint of the shared gateway, e.g. http://127.0.0.1:40123 */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface CephCluster extends CephInfo {
  /** How long the start took, in ms. */
  startMs: number;
  /** Resident memory of the monitor, the OSD and the shared gateway, in bytes. */
  memoryBytes(): number;
  /** The same, per daemon (mon.a, osd.0, client.rgw.shared). */
  memory(): Record<string, number>;
  stop(): Promise<void>;
}

/** Ceph is not installed, or did not start: the message says which and what to do. */
export class CephError extends Error {
  override readonly name = 'CephError';
}

export const CEPH_PACKAGES = 'ceph-mon ceph-osd radosgw';
const TOOLS = ['ceph', 'ceph-authtool', 'monmaptool', 'ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin'];
const REGION = 'us-east-1';

export interface StartOptions {
  /** Give up (and clean up) when the cluster is not serving S3 after this long. */
  deadlineMs?: number;
  /** Most bytes the in-memory OSD may hold. */
  memstoreBytes?: number;
}

export function missingCephTools(): string[] {
  return TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Resolves with `work`, or rejects as soon as one of `daemons` exits or the deadline passes. */
async function whileAlive<T>(
  work: Promise<T>,
  daemons: Daemon[],
  deadline: number,
  what: string,
  dir: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const died = daemons.map((d) =>
    d.exited.then((how) => {
      throw new CephError(
        `${d.name} stopped (${how}) while ${what}:\n${logTail(dir, `${d.name}.out`)}\n${logTail(dir, `${d.name}.log`)}`,
      );
    }),
  );
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CephError(`Ceph was not ready in time while ${what}.`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([work, ...died, late]);
  } finally {
    clearTimeout(timer);
    // The losers of the race must not surface as unhandled rejections later.
    for (const p of died) p.catch(() => {});
    late.catch(() => {});
  }
}

/** Waits until an HTTP server answers at `url` (any status). */
async function untilAnswering(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(5000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new CephError(`Nothing answered at ${url} in time.`);
      // The gateway gives no other sign that it is listening; ask again shortly.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Waits until the monitor `mon.a` of the cluster in `dir` reports itself as the quorum's leader. */
async function untilMonitorLeads(dir: string, deadline: number): Promise<void> {
  const socket = join(dir, 'run', 'mon.a.asok');
  let said = 'nothing (its admin socket is not open yet)';
  for (;;) {
    try {
      const status = JSON.parse(await runTool('ceph', ['--admin-daemon', socket, 'mon_status'], dir)) as {
        state?: string;
        quorum?: number[];
      };
      if (status.state === 'leader' && (status.quorum?.length ?? 0) > 0) return;
      said = `state ${JSON.stringify(status.state)}`;
    } catch (err) {
      said = (err as Error).message.split('\n')[0] ?? said;
    }
    if (Date.now() > deadline) throw new CephError(`The monitor did not lead in time; it said ${said}.`);
    // The monitor announces nothing when it becomes leader; ask again shortly.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Gateway {
  name: string;
  port: number;
  endpoint: string;
  pid(): number | undefined;
  /** Kills the gateway (as a crash would); its port stays reserved for `start`. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections are accepted by the kernel, but nothing is answered. */
  pause(): void;
  resume(): void;
}

function gatewayProcess(info: Pick<CephInfo, 'dir' | 'conf'>, name: string, port: number): Daemon {
  return spawnDaemon(info.dir, `client.rgw.${name}`, 'radosgw', [
    '-f',
    '-c',
    info.conf,
    '-n',
    `client.rgw.${name}`,
    `--rgw-frontends=beast endpoint=127.0.0.1:${port}`,
  ]);
}

/** Another gateway on the cluster of `info` (the cluster's watchdog also stops it). */
export async function startGateway(
  info: Pick<CephInfo, 'dir' | 'conf'>,
  options: { deadlineMs?: number } = {},
): Promise<Gateway> {
  const name = `t${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  let daemon: Daemon | undefined;
  const gateway: Gateway = {
    name,
    port,
    endpoint,
    pid: () => daemon?.child.pid,
    async stop() {
      await daemon?.kill();
      daemon = undefined;
    },
    async start() {
      if (daemon) return;
      const started = gatewayProcess(info, name, port);
      daemon = started;
      const deadline = Date.now() + (options.deadlineMs ?? 120_000);
      try {
        await whileAlive(
          untilAnswering(endpoint, deadline),
          [started],
          deadline,
          `starting ${name}`,
          info.dir,
        );
      } catch (err) {
        await started.kill();
        daemon = undefined;
        throw err;
      }
    },
    pause() {
      daemon?.child.kill('SIGSTOP');
    },
    resume() {
      daemon?.child.kill('SIGCONT');
    },
  };
  await gateway.start();
  return gateway;
}

/** Runs radosgw-admin on the cluster (e.g. to set a quota); resolves with its output. */
export function radosgwAdmin(info: Pick<CephInfo, 'dir' | 'conf'>, args: string[]): Promise<string> {
  return runTool('radosgw-admin', ['-c', info.conf, ...args], info.dir);
}

function randomKey(length: number, alphabet: string): string {
  return Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');
}

export async function startCeph(options: StartOptions = {}): Promise<CephCluster> {
  const missing = missingCephTools();
  if (missing.length > 0) {
    throw new CephError(
      `Ceph is not installed here (missing ${missing.join(', ')}). On Debian: apt-get install ${CEPH_PACKAGES}`,
    );
  }
  const began = Date.now();
  const deadline = began + (options.deadlineMs ?? 180_000);
  const dir = mkdtempSync(join(tmpdir(), 'hushdrop-ceph-'));
  for (const sub of ['log', 'run', 'mon', 'osd', 'crash']) mkdirSync(join(dir, sub));
  const watchdog = startWatchdog(dir);
  const daemons: Daemon[] = [];
  const conf = join(dir, 'ceph.conf');
  const tool = (command: string, args: string[], what: string) =>
    whileAlive(runTool(command, args, dir), daemons, deadline, what, dir);
  try {
    const fsid = randomUUID();
    const monPort = await freePort();
    writeFileSync(
      conf,
      cephConf({ dir, fsid, monPort, memstoreBytes: options.memstoreBytes ?? 8 * 1024 ** 3 }),
    );
    await tool(
      'ceph-authtool',
      ['--create-keyring', 'keyring', '--gen-key', '-n', 'mon.'],
      'making a keyring',
    );
    await tool(
      'monmaptool',
      ['--create', '--addv', 'a', `[v1:127.0.0.1:${monPort}]`, '--fsid', fsid, 'monmap'],
      'making the monitor map',
    );
    await tool(
      'ceph-mon',
      ['-c', conf, '--mkfs', '-i', 'a', '--monmap', 'monmap', '--keyring', 'keyring'],
      'creating the monitor',
    );
    daemons.push(spawnDaemon(dir, 'mon.a', 'ceph-mon', ['-f', '-c', conf, '-i', 'a']));
    // A command sent before the monitor leads its (one-member) quorum can be refused outright: under load
    // `osd new` once failed with "EPERM: problem getting command descriptions from mon". Ask the monitor
    // itself, through its admin socket, until it says it leads.
    await whileAlive(untilMonitorLeads(dir, deadline), daemons, deadline, 'starting the monitor', dir);

    const osdUuid = randomUUID();
    const osdId = (
      await tool(
        'ceph',
        ['-c', conf, '--connect-timeout', '120', 'osd', 'new', osdUuid],
        'registering the OSD',
      )
    ).trim();
    if (!/^\d+$/.test(osdId)) throw new CephError(`ceph osd new answered ${JSON.stringify(osdId)}.`);
    mkdirSync(join(dir, 'osd', `osd.${osdId}`));
    await Promise.all([
      tool('ceph-osd', ['-c', conf, '-i', osdId, '--mkfs', '--osd-uuid', osdUuid], 'creating the OSD'),
      tool(
        'ceph',
        [
          '-c',
          conf,
          'osd',
          'crush',
          'create-or-move',
          `osd.${osdId}`,
          '1.0',
          'root=default',
          'host=localhost',
        ],
        'placing the OSD',
      ),
    ]);
    daemons.push(spawnDaemon(dir, `osd.${osdId}`, 'ceph-osd', ['-f', '-c', conf, '-i', osdId]));

    // The gateway creates its pools as soon as the OSD is up, and only then listens.
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const gateway = gatewayProcess({ dir, conf }, 'shared', port);
    daemons.push(gateway);
    await whileAlive(untilAnswering(endpoint, deadline), daemons, deadline, 'starting the gateway', dir);

    const accessKeyId = randomKey(20, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    const secretAccessKey = randomKey(40, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
    await tool(
      'radosgw-admin',
      [
        '-c',
        conf,
        'user',
        'create',
        '--uid=hushdrop',
        '--display-name=Hushdrop tests',
        `--access-key=${accessKeyId}`,
        `--secret-key=${secretAccessKey}`,
      ],
      'creating the S3 user',
    );

    let stopped: Promise<void> | undefined;
    return {
      dir,
      conf,
      endpoint,
      region: REGION,
      accessKeyId,
      secretAccessKey,
      startMs: Date.now() - began,
      memoryBytes: () => daemons.reduce((sum, d) => sum + rssBytes(d.child.pid), 0),
      memory: () => Object.fromEntries(daemons.map((d) => [d.name, rssBytes(d.child.pid)])),
      stop() {
        stopped ??= (async () => {
          for (const daemon of [...daemons].reverse()) await daemon.kill();
          await watchdog.release();
        })();
        return stopped;
      },
    };
  } catch (err) {
    // The folder goes with the cluster; CEPH_KEEP_LOGS=<folder> keeps the logs of a start that failed.
    if (process.env.CEPH_KEEP_LOGS) cpSync(join(dir, 'log'), process.env.CEPH_KEEP_LOGS, { recursive: true });
    for (const daemon of [...daemons].reverse()) await daemon.kill();
    await watchdog.release();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
