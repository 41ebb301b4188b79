// An upload in parts broken off by a reload, for the two upload pages' resume scenarios
// (home-page.e2e, upload-resume.e2e): a file on disk that is the same file when chosen again, and
// the reload itself, with a part held at the front (parts-front.ts) so that the break comes mid-way.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../../../devkit/wait';
import type { DriverPage } from '../driver/driver';
import type { PartsFront } from './parts-front';

/**
 * A file on disk, chosen by its path: chosen again, it is the same file (its time included). Its time
 * is a whole second given here, so that another file can have the same.
 */
export function fileOnDisk(name: string, bytes: Buffer, mtimeSeconds = 1_700_000_000): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'hushdrop-resume-')), 'chosen');
  mkdirSync(dir);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  utimesSync(path, mtimeSeconds, mtimeSeconds);
  return path;
}

/** The parts of the front's requests since `mark` that the server took (answered 204). */
export const partsTaken = (front: PartsFront, mark: number) =>
  front.seen
    .slice(mark)
    .filter((s) => s.method === 'PUT' && s.status === 204)
    .map((s) => Number(/\/Parts\/[A-Za-z0-9]+\/(\d+)(?:\?|$)/i.exec(s.path)?.[1]))
    .sort();

/**
 * Chooses `path` in the page's file input `input`, holds part `held` of its upload at the front, waits
 * until the server has taken the parts in `taken`, then reloads the page: the upload is broken off
 * mid-way, as a reload breaks it, and the page offers it.
 */
export async function reloadedMidUpload(
  front: PartsFront,
  page: DriverPage,
  input: string,
  path: string,
  held: number,
  taken: number[],
): Promise<void> {
  const mark = front.seen.length;
  front.holdPart = held;
  try {
    await page.setInputFiles(input, path);
    await until(
      async () => (front.held && partsTaken(front, mark).join() === taken.join() ? true : undefined),
      `part ${held} held at the front and parts ${taken.join(', ')} taken`,
      120_000,
    );
    await page.reload();
  } finally {
    front.holdPart = undefined;
    front.held = undefined;
    front.releaseHeld();
  }
  const name = path.split('/').pop();
  await page.waitFor(
    {
      css: '#interrupted > li',
      hasText: `${name} was interrupted. Choose the same file again to resume it.`,
    },
    { visible: true, timeout: 30_000 },
  );
}
