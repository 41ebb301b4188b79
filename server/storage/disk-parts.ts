// A blob written in parts on disk: `<files>/<id>.parts/` holds `data` (one file every part writes into at
// its own offset, so parts land in parallel and Done copies nothing) and one empty file per part that
// arrived whole, named by its index, made only after the part's bytes were flushed. The folder is the
// durable state: Done checks the markers, then renames `data` into place as the ordinary blob `<id>`.
// Only this process writes the data folder (its lock), so a Done waits here for the parts in flight, and an
// abort cuts them (it never waits on a client).

import { type FileHandle, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { diskError, fsCode } from './disk-errors';
import { StorageError } from './errors';
import { PartLengthError, type PartsLayout, PartsMissingError, partSize, partsKey } from './types';

const SUFFIX = '.parts';
const DATA = 'data';

/** The blob's writes in parts in this process: parts in flight (with their bodies), and whether a Done or abort closed it. */
interface Live {
  inFlight: Map<Promise<unknown>, Readable>;
  closed: boolean;
}

/**
 * Bytes gathered into one write. A body arrives in chunks of about 16 KiB (an HTTP/2 DATA frame);
 * writing each on its own costs a thread-pool round trip per chunk, about half the server's CPU for a
 * part. Batched, with one write in flight while the next batch is read, the disk keeps pace.
 */
const WRITE_BATCH_BYTES = 1024 * 1024;

/** Writes `buffers` at `at`, all of them: a short write (a disk filling up) goes on until the disk says why. */
export async function writeAll(file: FileHandle, buffers: Buffer[], at: number): Promise<void> {
  const total = buffers.reduce((sum, b) => sum + b.length, 0);
  const first = (await file.writev(buffers, at)).bytesWritten;
  if (first === total) return;
  const rest = Buffer.concat(buffers).subarray(first);
  let done = first;
  while (done < total) {
    const { bytesWritten } = await file.write(rest, done - first, total - done, at + done);
    if (bytesWritten === 0)
      throw Object.assign(new Error('The disk took no more bytes.'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

/**
 * Writes `body` into `file` from `offset`, refusing more than `limit` bytes; resolves with the count.
 * One batch is written while the next is read. A failure stops reading but leaves the body whole, so
 * the server can still read the rest and answer.
 */
async function writeBatched(
  file: FileHandle,
  body: Readable,
  offset: number,
  limit: number,
): Promise<number> {
  let queued = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    // One write in flight: a failure of the previous one stops here.
    await writing;
    writing = writeAll(file, batch, offset + queued);
    // Met at the next `await writing`; this only keeps it from counting as unhandled meanwhile.
    writing.catch(() => {});
    queued += batchBytes;
    batch = [];
    batchBytes = 0;
  };
  for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    if (queued + batchBytes + chunk.length > limit) {
      await writing;
      throw new PartLengthError(limit, 'more');
    }
    batch.push(chunk);
    batchBytes += chunk.length;
    if (batchBytes >= WRITE_BATCH_BYTES) await flush();
  }
  if (batchBytes > 0) await flush();
  await writing;
  return queued;
}

function gone(id: string): StorageError {
  return new StorageError('not-found', `No upload in parts for ${id}.`);
}

export class DiskParts {
  private readonly live = new Map<string, Live>();

  /** `blobPath(id)` checks the id and gives where the finished blob goes; `dir` is the blobs' folder. */
  constructor(
    private readonly dir: string,
    private readonly blobPath: (id: string) => string,
    private readonly syncDir: (dir: string) => Promise<void>,
  ) {}

  private folderOf(id: string): string {
    return `${this.blobPath(id)}${SUFFIX}`;
  }

  private liveOf(id: string): Live {
    let entry = this.live.get(id);
    if (!entry) {
      entry = { inFlight: new Map(), closed: false };
      this.live.set(id, entry);
    }
    return entry;
  }

  /** Runs `work` (reading `body`) as a part in flight of `id`, unless a Done or abort has closed it. */
  private async asPart<T>(id: string, body: Readable, work: () => Promise<T>): Promise<T> {
    const entry = this.liveOf(id);
    if (entry.closed) throw gone(id);
    const run = work();
    entry.inFlight.set(run, body);
    try {
      return await run;
    } finally {
      entry.inFlight.delete(run);
      if (entry.inFlight.size === 0 && !entry.closed) this.live.delete(id);
    }
  }

  /** Closes `id` to parts and waits for those in flight; `reopen` undoes it (a Done that found parts missing). */
  private async close(id: string): Promise<{ reopen(): void; forget(): void }> {
    const entry = this.liveOf(id);
    if (entry.closed) throw gone(id);
    entry.closed = true;
    await Promise.allSettled([...entry.inFlight.keys()]);
    const release = () => {
      entry.closed = false;
      if (entry.inFlight.size === 0 && this.live.get(id) === entry) this.live.delete(id);
    };
    return { reopen: release, forget: release };
  }

  async begin(id: string): Promise<string> {
    const folder = this.folderOf(id);
    try {
      await mkdir(folder, { mode: 0o700 });
      await writeFile(join(folder, DATA), '', { flag: 'wx', mode: 0o600 });
      await this.syncDir(this.dir);
    } catch (err) {
      await rm(folder, { recursive: true, force: true });
      throw diskError(err, 'starting an upload in parts');
    }
    return '';
  }

  put(id: string, layout: PartsLayout, index: number, body: Readable): Promise<void> {
    const folder = this.folderOf(id);
    const marker = join(folder, String(index));
    const expected = partSize(layout, index);
    const offset = index * layout.partBytes;
    return this.asPart(id, body, async () => {
      let file: Awaited<ReturnType<typeof open>>;
      try {
        // The index is absent while its bytes change: a part that fails now leaves it absent.
        await rm(marker, { force: true });
        file = await open(join(folder, DATA), 'r+');
      } catch (err) {
        if (fsCode(err) === 'ENOENT') throw gone(id);
        throw diskError(err, 'storing a part');
      }
      try {
        const written = await writeBatched(file, body, offset, expected);
        if (written !== expected) throw new PartLengthError(expected, written);
        await file.sync();
      } catch (err) {
        if (fsCode(err) !== undefined) throw diskError(err, 'storing a part');
        throw err;
      } finally {
        await file.close();
      }
      try {
        await writeFile(marker, '', { mode: 0o600 });
        await this.syncDir(folder);
      } catch (err) {
        if (fsCode(err) === 'ENOENT') throw gone(id);
        throw diskError(err, 'storing a part');
      }
    });
  }

  /** The indices whose marker is there (a part's marker is made once its bytes were flushed), ascending. */
  async held(id: string, layout: PartsLayout): Promise<number[]> {
    let names: string[];
    try {
      names = await readdir(this.folderOf(id));
    } catch (err) {
      if (fsCode(err) === 'ENOENT') throw gone(id);
      throw diskError(err, 'listing the parts of an upload');
    }
    // The markers present are read, never the indices a layout could have (a count is not a loop bound).
    return names
      .filter((name) => /^(0|[1-9][0-9]*)$/.test(name) && Number(name) < layout.count)
      .map(Number)
      .sort((a, b) => a - b);
  }

  async complete(id: string, layout: PartsLayout): Promise<{ size: number }> {
    const folder = this.folderOf(id);
    const closing = await this.close(id);
    try {
      const missing = layout.count - (await this.held(id, layout)).length;
      if (missing > 0) {
        closing.reopen();
        throw new PartsMissingError(missing);
      }
      const data = join(folder, DATA);
      const { size } = await stat(data);
      if (size !== layout.totalBytes) {
        closing.reopen();
        throw new PartsMissingError(1);
      }
      // Every part was flushed before its marker was made: the rename alone publishes whole bytes.
      await rename(data, this.blobPath(id));
      await this.syncDir(this.dir);
      await rm(folder, { recursive: true, force: true });
      closing.forget();
      return { size };
    } catch (err) {
      if (err instanceof PartsMissingError || err instanceof StorageError) throw err;
      closing.reopen();
      throw diskError(err, 'finishing an upload in parts');
    }
  }

  async abort(id: string): Promise<void> {
    const folder = this.folderOf(id);
    const entry = this.liveOf(id);
    entry.closed = true;
    try {
      // Never waits on a client: the parts still arriving are cut, and their writes end with the batch at hand.
      for (const body of entry.inFlight.values()) body.destroy();
      await Promise.allSettled([...entry.inFlight.keys()]);
      await rm(folder, { recursive: true, force: true });
    } catch (err) {
      throw diskError(err, 'removing an upload in parts');
    } finally {
      if (this.live.get(id) === entry) this.live.delete(id);
    }
  }

  /** Removes writes in parts older than `olderThanMs` that `keep` does not name; resolves with how many. */
  async sweep(olderThanMs: number, keep: ReadonlySet<string>, now = Date.now()): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      throw diskError(err, 'listing uploads in parts');
    }
    for (const name of names) {
      if (!name.endsWith(SUFFIX)) continue;
      const id = name.slice(0, -SUFFIX.length);
      if (keep.has(partsKey(id, '')) || this.live.has(id)) continue;
      try {
        const info = await stat(join(this.dir, name));
        if (now - info.mtimeMs < olderThanMs) continue;
        await rm(join(this.dir, name), { recursive: true, force: true });
        removed++;
      } catch (err) {
        if (fsCode(err) !== 'ENOENT') throw diskError(err, 'removing an upload in parts');
      }
    }
    return removed;
  }
}
