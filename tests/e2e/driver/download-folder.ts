// The download folder as a person would look into it: every file under it, finished or partial.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface FolderFile {
  /** The path inside the folder. */
  path: string;
  size: number;
}

/** The files under `dir`, sorted by path; none when it does not exist yet. */
export function filesIn(dir: string): FolderFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .map((full) => ({ path: relative(dir, full), size: statSync(full).size }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
