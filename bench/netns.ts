// A rate-limited link for row l: a network namespace joined to this one by a veth pair, with a
// token bucket (`tc qdisc … tbf`) on this side's end, so every byte sent towards the namespace
// goes through the limit. The server runs inside; Chromium and curl stay here. Needs root and
// iproute2 (`ip`, `tc`); where either is missing the row says so and is skipped.
//
// The namespace and the veth pair are removed when the row ends, and also when the bench is
// stopped (Ctrl+C, the time limit's SIGTERM) or fails: a process exit handler removes them with
// synchronous commands. A namespace left by a bench that was killed outright (SIGKILL) is removed
// by the next run, once its bench's process is gone.
import { spawnSync } from 'node:child_process';
import { run } from './common';

export interface LimitedLink {
  /** The namespace's name (`ip netns exec <ns>` runs the server there). */
  ns: string;
  /** The address inside the namespace, reached through the limit. */
  remoteIp: string;
  /** Sets the limit on the way into the namespace, in Mbit/s. */
  limit(mbit: number): Promise<void>;
  /** Removes the namespace and the veth pair. */
  close(): void;
}

const PREFIX = 'hdbench';

/** Why the link cannot be made here, or undefined when it can. */
function missing(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'the bench does not run as root (ip netns needs it)';
  for (const tool of ['ip', 'tc'])
    if (spawnSync(tool, ['-V'], { stdio: 'ignore' }).error) return `\`${tool}\` is not installed (iproute2)`;
  return undefined;
}

const quietly = (args: string[]) => spawnSync('ip', args, { stdio: 'ignore' });

/** Removes namespaces of earlier bench runs whose process is gone (killed before they could clean up). */
function removeLeftovers(): void {
  const list = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  for (const m of list.matchAll(new RegExp(`^${PREFIX}(\\d+)\\b`, 'gm'))) {
    const pid = Number(m[1]);
    if (pid === process.pid || spawnSync('kill', ['-0', String(pid)], { stdio: 'ignore' }).status === 0)
      continue;
    quietly(['link', 'del', `${PREFIX.slice(0, 3)}${pid}h`]);
    quietly(['netns', 'del', `${PREFIX}${pid}`]);
  }
}

/** Creates the link, or says why it cannot. */
export async function createLimitedLink(): Promise<LimitedLink | { skipped: string }> {
  const why = missing();
  if (why) return { skipped: why };
  removeLeftovers();
  const pid = process.pid;
  const ns = `${PREFIX}${pid}`;
  // Interface names have at most 15 characters: "hdb" + pid + one letter.
  const here = `hdb${pid}h`;
  const there = `hdb${pid}n`;
  // A /30 in 10.213.0.0/16 chosen by the pid, so two benches side by side do not collide.
  const block = (pid % 16000) * 4;
  const net = `10.213.${block >> 8}.${block & 255}`.split('.').map(Number);
  const ip = (last: number) => `${net[0]}.${net[1]}.${net[2]}.${net[3]! + last}`;
  const localIp = ip(1);
  const remoteIp = ip(2);

  let closed = false;
  const remove = () => {
    if (closed) return;
    closed = true;
    // Deleting one end of a veth pair deletes both; the namespace goes once its last process has.
    quietly(['link', 'del', here]);
    quietly(['netns', 'del', ns]);
  };
  const close = () => {
    remove();
    process.off('exit', remove);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  // A Ctrl+C reaches the bench twice (from the terminal and relayed by tsx): the handler stays in
  // place, or the second one would end the process with the namespace half removed.
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', remove);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const inNs = (args: string[]) => run('ip', ['netns', 'exec', ns, ...args]);
    await run('ip', ['netns', 'add', ns]);
    await run('ip', ['link', 'add', here, 'type', 'veth', 'peer', 'name', there]);
    await run('ip', ['link', 'set', there, 'netns', ns]);
    await run('ip', ['addr', 'add', `${localIp}/30`, 'dev', here]);
    await run('ip', ['link', 'set', here, 'up']);
    await inNs(['ip', 'addr', 'add', `${remoteIp}/30`, 'dev', there]);
    await inNs(['ip', 'link', 'set', there, 'up']);
    await inNs(['ip', 'link', 'set', 'lo', 'up']);
  } catch (err) {
    close();
    return { skipped: `the namespace could not be made: ${(err as Error).message}` };
  }
  return {
    ns,
    remoteIp,
    async limit(mbit) {
      // The bucket holds 4 ms at the rate (at least 64 KiB): enough for the kernel's timer tick at
      // 1 Gbit/s, small enough that the rate holds over any stretch worth measuring.
      const burst = Math.max(64 * 1024, Math.round(((mbit * 1e6) / 8) * 0.004));
      await run('tc', [
        'qdisc',
        'replace',
        'dev',
        here,
        'root',
        'tbf',
        'rate',
        `${mbit}mbit`,
        'burst',
        String(burst),
        'latency',
        '50ms',
      ]);
    },
    close,
  };
}
