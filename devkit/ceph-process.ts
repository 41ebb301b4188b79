// Processes of a throwaway Ceph cluster, and the guarantee that none outlives it.
//
// Every daemon runs in the foreground (-f) in its own process group (so a Ctrl+C meant for the test run
// does not reach it half-way), and its pid goes into <dir>/pids. A watchdog shell reads a pipe from the
// process that started the cluster; when that pipe closes (a clean stop, or that process dying in any
// way, SIGKILL included) it kills every pid listed whose command line still names this cluster's
// ceph.conf (so a reused pid is never touched), then removes the folder.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';

const WATCHDOG = `
trap '' INT TERM HUP
dir="$1"
cat > /dev/null
if [ -f "$dir/pids" ]; then
  while read -r pid; do
    case "$(tr '\\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)" in
      *"$dir/ceph.conf"*) kill -9 "$pid" 2>/dev/null ;;
    esac
  done < "$dir/pids"
fi
rm -rf "$dir"
`;

export interface Watchdog {
  /** Kills whatever is left of the cluster and removes its folder; resolves when that is done. */
  release(): Promise<void>;
}

export function startWatchdog(dir: string): Watchdog {
  const child = spawn('sh', ['-c', WATCHDOG, 'ceph-watchdog', dir], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // The watchdog never keeps this process alive; the pipe still closes when this process ends.
  child.unref();
  (child.stdin as unknown as Socket | null)?.unref();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    release() {
      child.ref(); // this process now waits for the cleanup
      child.stdin?.end();
      return exited;
    },
  };
}

export interface Daemon {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<string>;
  /** SIGKILL (the data is thrown away, so no orderly shutdown is needed); resolves once it is gone. */
  kill(): Promise<void>;
}

/** Starts `command args…` in the foreground, output appended to <dir>/log/<name>.out, pid recorded. */
export function spawnDaemon(dir: string, name: string, command: string, args: string[]): Daemon {
  const out = openSync(join(dir, 'log', `${name}.out`), 'a');
  let child: ChildProcess;
  try {
    child = spawn(command, args, { cwd: dir, detached: true, stdio: ['ignore', out, out] });
  } finally {
    closeSync(out);
  }
  if (child.pid !== undefined) appendFileSync(join(dir, 'pids'), `${child.pid}\n`);
  child.unref();
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`));
    child.once('error', (err) => resolve(err.message));
  });
  return {
    name,
    child,
    exited,
    async kill() {
      child.ref();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The last lines of a daemon's log, for an error message. */
export function logTail(dir: string, file: string, lines = 15): string {
  try {
    return readFileSync(join(dir, 'log', file), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

/** Runs a Ceph command-line tool to its end; rejects with its output when it fails. */
export function runTool(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${command} ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}

/** Resident memory of a process in bytes (0 once it is gone). */
export function rssBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
