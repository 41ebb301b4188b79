// Searching a kept Chromium profile's files for secrets (profile-search.e2e, resume-secrets.e2e):
// every file under the profile, read whole, for each needle in the ways a string may be written to
// disk; and a wait for session restore, which writes open tabs and their fields a few seconds after
// they change, so that a search sees what it keeps.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { until } from '../../../devkit/wait';

/** Every file under `dir`, with its path relative to `root`. */
export function* filesUnder(dir: string, root = dir): Generator<{ path: string; rel: string }> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      continue; // a socket or a link that went away
    }
    if (st.isDirectory()) yield* filesUnder(path, root);
    else if (st.isFile()) yield { path, rel: relative(root, path) };
  }
}

/** The newest change to Chromium's session files (session restore: open tabs, their fields, closed tabs). */
function sessionsChanged(profileDir: string): number {
  let newest = 0;
  for (const { path } of filesUnder(join(profileDir, 'Default', 'Sessions')))
    newest = Math.max(newest, statSync(path).mtimeMs);
  return newest;
}

/** Waits for session restore to save what changed after `since`. */
export function sessionSaved(profileDir: string, since: number): Promise<true> {
  return until(
    async () => (sessionsChanged(profileDir) > since ? true : undefined),
    'session restore to save',
    30_000,
  );
}

/** The ways a string may be written to disk: UTF-8/Latin-1, UTF-16 either way round, base64. */
function encodings(text: string): Buffer[] {
  const le = Buffer.from(text, 'utf16le');
  const be = Buffer.from(le);
  be.swap16();
  return [Buffer.from(text, 'utf8'), le, be, Buffer.from(Buffer.from(text).toString('base64'))];
}

/** The profile's files that hold any of `needles` (as text) or `raw` (as bytes), each with what it holds. */
export function whereFound(profileDir: string, needles: string[], raw: Buffer[] = []): string[] {
  const patterns = [
    ...needles.flatMap((n) => encodings(n).map((bytes) => ({ n, bytes }))),
    ...raw.map((bytes) => ({ n: bytes.toString('hex'), bytes })),
  ];
  const hits = new Set<string>();
  for (const { path, rel } of filesUnder(profileDir)) {
    const data = readFileSync(path);
    for (const { n, bytes } of patterns) if (data.includes(bytes)) hits.add(`${rel} (${n.slice(0, 12)}…)`);
  }
  return [...hits].sort();
}
