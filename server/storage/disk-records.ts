// Records as JSON files under <dataDir>/records: `<key>.json` holding `{"version": n, "value": {…}}`
// (n starts random and counts up).
// Every write goes to a temporary file (`.tmp-<random>`: a key never starts with a dot, so no record can
// take its name) that is flushed and then linked (create) or renamed (update) into place, so a record on
// disk is always whole. Compare-and-swap holds within this process (a lock
// per key); the data folder's lock keeps other processes out.

import { randomInt } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomText } from '../../lib/crypto/text';
import { syncDir } from './disk-blobs';
import { diskError, fsCode } from './disk-errors';
import { StorageError } from './errors';
import { readOrSkip } from './record-listing';
import type { JsonRecord, ListOptions, RecordStore, Versioned } from './types';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const SUFFIX = '.json';
const TEMP_PREFIX = '.tmp-';
/** Temporary files as earlier versions named them (`<16 alphanumerics>.tmp`), removed at start too. */
const OLD_TEMP = /^[A-Za-z0-9]{16}\.tmp$/;

interface OnDisk {
  version: number;
  value: JsonRecord;
}

const isKey = (key: string) => KEY.test(key);

export class DiskRecords implements RecordStore<JsonRecord> {
  // Tail of each key's queue of updates and deletions; absent when nothing is queued.
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const name of await readdir(this.dir)) {
      if (name.startsWith(TEMP_PREFIX) || OLD_TEMP.test(name))
        await rm(join(this.dir, name), { force: true });
    }
  }

  /** Where a record lives (tests of the disk store read it directly). The key is the caller's to check. */
  pathOf(key: string): string {
    // Never the key in the message: it is an upload's name, which must not reach a log.
    if (!isKey(key)) throw new Error('Invalid record key.');
    return join(this.dir, `${key}${SUFFIX}`);
  }

  /** Writes a whole record to a fresh temporary file, flushed; returns its path. */
  private async writeTemp(record: OnDisk): Promise<string> {
    const temp = join(this.dir, `${TEMP_PREFIX}${randomText(16)}`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(record));
      await handle.sync();
    } catch (err) {
      await handle.close().catch(() => {});
      await rm(temp, { force: true });
      throw err;
    }
    await handle.close();
    return temp;
  }

  /** Runs `work` after every earlier queued operation on `key`. */
  private serialize<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => {});
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  private async readDisk(key: string): Promise<OnDisk | null> {
    let text: string;
    try {
      text = await readFile(this.pathOf(key), 'utf8');
    } catch (err) {
      if (fsCode(err) === 'ENOENT') return null;
      throw diskError(err, 'reading an upload record');
    }
    try {
      const parsed = JSON.parse(text) as OnDisk;
      if (!Number.isSafeInteger(parsed.version) || typeof parsed.value !== 'object' || parsed.value === null)
        throw new Error('not a record');
      return parsed;
    } catch (err) {
      // Not the key in the message: it may be an upload's name (the listing tells the key apart).
      throw new StorageError('unreadable', 'A record on disk is unreadable (not whole, or not a record).', {
        cause: err,
      });
    }
  }

  async create(key: string, value: JsonRecord): Promise<boolean> {
    const path = this.pathOf(key);
    let temp: string | undefined;
    try {
      // A random first version, not 1: a record deleted and created again (a parts address record) must
      // not take back a version an earlier reader still holds, or that reader's write would land (A-B-A).
      temp = await this.writeTemp({ version: randomInt(1, 2 ** 47), value });
      await link(temp, path);
      await syncDir(this.dir);
      return true;
    } catch (err) {
      if (fsCode(err) === 'EEXIST') return false;
      throw diskError(err, 'storing an upload record');
    } finally {
      if (temp) await rm(temp, { force: true });
    }
  }

  async read(key: string): Promise<Versioned<JsonRecord> | null> {
    // A key no record can have names no record: absent, like any other.
    if (!isKey(key)) return null;
    const record = await this.readDisk(key);
    return record ? { value: record.value, version: String(record.version) } : null;
  }

  update(key: string, version: string, value: JsonRecord): Promise<boolean> {
    if (!isKey(key)) return Promise.resolve(false);
    return this.serialize(key, async () => {
      const current = await this.readDisk(key);
      if (!current || String(current.version) !== version) return false;
      let temp: string | undefined;
      try {
        temp = await this.writeTemp({ version: current.version + 1, value });
        await rename(temp, this.pathOf(key));
        temp = undefined;
        await syncDir(this.dir);
        return true;
      } catch (err) {
        throw diskError(err, 'updating an upload record');
      } finally {
        if (temp) await rm(temp, { force: true });
      }
    });
  }

  delete(key: string, version?: string): Promise<boolean> {
    if (!isKey(key)) return Promise.resolve(false);
    return this.serialize(key, async () => {
      if (version !== undefined) {
        const current = await this.readDisk(key);
        if (!current || String(current.version) !== version) return false;
      }
      try {
        await rm(this.pathOf(key));
        await syncDir(this.dir);
        return true;
      } catch (err) {
        if (fsCode(err) === 'ENOENT') return false;
        throw diskError(err, 'deleting an upload record');
      }
    });
  }

  async *list(options: ListOptions = {}): AsyncIterable<Versioned<JsonRecord> & { key: string }> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      throw diskError(err, 'listing upload records');
    }
    for (const name of names) {
      if (!name.endsWith(SUFFIX)) continue;
      const key = name.slice(0, -SUFFIX.length);
      if (!isKey(key)) continue;
      const record = await readOrSkip(this, key, options);
      if (record) yield { key, ...record };
    }
  }
}
