// Files a test gives a page, written into the browser's profile first: the browser then reads them
// from disk as from a file picker, whatever their size (no copy of the bytes through the protocol,
// which took over 30 s for 12 MiB in Chromium on a loaded machine).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileSpec } from './driver';

export class TestFiles {
  private written = 0;

  /** In the browser's profile (removed with it); a page without a known profile gets a temporary folder. */
  constructor(private profileDir?: string) {}

  /** Paths of `files` on disk (a string is a path already), each in a folder of its own to keep its name. */
  paths(files: FileSpec | FileSpec[] | string): string[] {
    if (typeof files === 'string') return [files];
    return (Array.isArray(files) ? files : [files]).map((f) => this.write(f.name, f.buffer));
  }

  write(name: string, bytes: Buffer): string {
    this.profileDir ??= mkdtempSync(join(tmpdir(), 'hushdrop-test-files-'));
    const dir = join(this.profileDir, 'test-files', String(++this.written));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  }
}
