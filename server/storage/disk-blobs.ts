// Blobs as files under <dataDir>/files: written to `<id>.part`, flushed, then renamed to `<id>`.

import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { diskError, fsCode } from './disk-errors';
import { DiskParts, writeAll } from './disk-parts';
import { StorageError } from './errors';
import type { BlobInfo, BlobStore, ByteRange, PartsLayout, PutOptions } from './types';

const ID = /^[A-Za-z0-9]{1,64}$/;
const PART = '.part';
/** Bytes the file may have queued before the incoming stream is paused. */
const WRITE_QUEUE_BYTES = 4 * 1024 * 1024;

function checkId(id: string): void {
  if (!ID.test(id)) throw new Error(`Invalid blob id: ${JSON.stringify(id)}`);
}

/** fsyncs a directory, so a rename or unlink in it survives a power cut. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class DiskBlobs implements BlobStore {
  private readonly parts: DiskParts;

  constructor(readonly dir: string) {
    this.parts = new DiskParts(dir, (id) => this.pathOf(id), syncDir);
  }

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // Parts of uploads a stopped process was receiving: the folder's lock says no one else writes here.
    for (const name of await readdir(this.dir)) {
      if (name.endsWith(PART)) await rm(join(this.dir, name), { force: true });
    }
  }

  pathOf(id: string): string {
    checkId(id);
    return join(this.dir, id);
  }

  async put(id: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const path = this.pathOf(id);
    const temp = `${path}${PART}`;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      // `flush`: the data is fsynced before the file closes, so the rename below publishes whole bytes.
      const file = createWriteStream(temp, {
        flags: 'wx',
        mode: 0o600,
        flush: true,
        highWaterMark: WRITE_QUEUE_BYTES,
      });
      await pipeline(body, counter, file, { signal: options.signal });
      await rename(temp, path);
      await syncDir(this.dir);
      return { size };
    } catch (err) {
      await rm(temp, { force: true });
      // The caller's abort or the body's own failure is theirs to report; the disk's is a StorageError.
      if (options.signal?.aborted) throw options.signal.reason;
      if (fsCode(err) !== undefined) throw diskError(err, 'storing an upload');
      throw err;
    }
  }

  async get(id: string, range?: ByteRange): Promise<Readable> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.pathOf(id), 'r');
    } catch (err) {
      if (fsCode(err) === 'ENOENT') throw new StorageError('not-found', `No stored bytes for ${id}.`);
      throw diskError(err, 'reading an upload');
    }
    // Opened before returning: a deletion from now on no longer affects this read.
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async rewrite(id: string, transforms: Transform[]): Promise<void> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.pathOf(id), 'r+');
    } catch (err) {
      if (fsCode(err) === 'ENOENT') throw new StorageError('not-found', 'No stored bytes to rewrite.');
      throw diskError(err, 'rewriting an upload');
    }
    const file = handle;
    try {
      // The transforms keep the length and hand on bytes only after reading them: every write lands at
      // or behind the read position, on bytes already read.
      let at = 0;
      const writeBack = new Writable({
        highWaterMark: WRITE_QUEUE_BYTES,
        write(chunk: Buffer, _encoding, done) {
          const position = at;
          at += chunk.length;
          writeAll(file, [chunk], position).then(() => done(), done);
        },
      });
      await pipeline([file.createReadStream({ autoClose: false, start: 0 }), ...transforms, writeBack]);
      await file.sync();
    } catch (err) {
      if (fsCode(err) !== undefined) throw diskError(err, 'rewriting an upload');
      throw err;
    } finally {
      await file.close();
    }
  }

  async delete(id: string): Promise<void> {
    try {
      await rm(this.pathOf(id), { force: true });
    } catch (err) {
      throw diskError(err, 'deleting an upload');
    }
  }

  async *list(): AsyncIterable<BlobInfo> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      throw diskError(err, 'listing uploads');
    }
    for (const id of names) {
      if (!ID.test(id)) continue;
      try {
        const info = await stat(join(this.dir, id));
        yield { id, size: info.size, modifiedAt: info.mtimeMs };
      } catch (err) {
        if (fsCode(err) !== 'ENOENT') throw diskError(err, 'listing uploads');
      }
    }
  }

  // Writes in parts (disk-parts.ts); the handle is always '' (the id names the folder).
  beginParts(id: string): Promise<string> {
    return this.parts.begin(id);
  }

  putPart(id: string, _handle: string, layout: PartsLayout, index: number, body: Readable): Promise<void> {
    return this.parts.put(id, layout, index, body);
  }

  heldParts(id: string, _handle: string, layout: PartsLayout): Promise<number[]> {
    return this.parts.held(id, layout);
  }

  completeParts(id: string, _handle: string, layout: PartsLayout): Promise<{ size: number }> {
    return this.parts.complete(id, layout);
  }

  abortParts(id: string, _handle: string): Promise<void> {
    return this.parts.abort(id);
  }

  /** Only writes in parts can be left open on disk (a failed put leaves nothing). */
  sweepOpenUploads(olderThanMs: number, keep: ReadonlySet<string> = new Set()): Promise<number> {
    return this.parts.sweep(olderThanMs, keep);
  }
}
