// The server's upload table (in memory) and the stored bytes (on disk, under <dataDir>/files).

import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomAlphanumeric } from './random';
import type { StoredUpload } from './types';

/** Length of the random part of public names (Teknik's UrlLength default). */
const NAME_LENGTH = 5;

export interface StoredRecord extends StoredUpload {
  /** expirationDate in ms since the epoch, for comparisons. */
  expiresAt: number | null;
}

export class UploadStore {
  private readonly records = new Map<string, StoredRecord>();
  // Names handed out but not yet added, so concurrent uploads never share one.
  private readonly reserved = new Set<string>();

  constructor(readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** A fresh path for bytes being received; it is not exposed to clients. */
  partPath(): string {
    return join(this.dir, `${randomAlphanumeric(20)}.part`);
  }

  /** Moves received bytes to their storage name (random, `.enc`, never exposed) and returns it. */
  async keep(partPath: string): Promise<string> {
    const path = join(this.dir, `${randomAlphanumeric(20)}.enc`);
    await rename(partPath, path);
    return path;
  }

  /** A public name: 5 random alphanumerics plus the extension, unique among live uploads. */
  reserveName(extension: string): string {
    for (;;) {
      const name = randomAlphanumeric(NAME_LENGTH) + extension;
      if (!this.records.has(name) && !this.reserved.has(name)) {
        this.reserved.add(name);
        return name;
      }
    }
  }

  add(record: StoredRecord): void {
    this.reserved.delete(record.fileName);
    this.records.set(record.fileName, record);
  }

  get(fileName: string): StoredRecord | undefined {
    return this.records.get(fileName);
  }

  /**
   * The record if the upload is still live. An upload past its date, or whose download allowance is used
   * up, is deleted here, on the next request for it, as Teknik did.
   */
  async live(fileName: string, nowMs: number): Promise<StoredRecord | undefined> {
    const record = this.records.get(fileName);
    if (!record) return undefined;
    const expiredByDate = record.expiresAt !== null && nowMs >= record.expiresAt;
    const expiredByViews = record.maxDownloads > 0 && record.downloads >= record.maxDownloads;
    if (!expiredByDate && !expiredByViews) return record;
    await this.remove(fileName);
    return undefined;
  }

  async remove(fileName: string): Promise<void> {
    const record = this.records.get(fileName);
    if (!record) return;
    this.records.delete(fileName);
    await rm(record.path, { force: true });
  }
}
