// Memory of a browser as Linux sees it, read from /proc: a process and all its descendants (a
// browser is many processes). Used by the e2e memory tests and the bench.
import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory in bytes, by kind: anonymous, file-backed, shared, and their total (VmRSS). */
export interface Memory {
  anon: number;
  file: number;
  shmem: number;
  total: number;
}

/** Every running process's children, by parent pid. */
function childrenByParent(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields after the last ")" are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(name));
      map.set(ppid, list);
    } catch {
      // The process ended meanwhile.
    }
  }
  return map;
}

/** The direct children of `pid`. */
export function childPids(pid: number): number[] {
  return childrenByParent().get(pid) ?? [];
}

/** `pid` and all its descendants. */
export function processTree(pid: number): number[] {
  const tree = childrenByParent();
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(tree.get(p) ?? []));
  }
  return out;
}

/** The executable's short name (`comm`), or '' for a process that is gone. */
export function processName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Resident memory of `pid` and its descendants, summed by kind. */
export function treeMemory(pid: number): Memory {
  const sum: Memory = { anon: 0, file: 0, shmem: 0, total: 0 };
  for (const p of processTree(pid)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      continue;
    }
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    sum.anon += kb('RssAnon');
    sum.file += kb('RssFile');
    sum.shmem += kb('RssShmem');
    sum.total += kb('VmRSS');
  }
  return sum;
}
