// Records as small JSON objects under <prefix>records/<key>, changed only by conditional writes, so
// that several server instances can share them:
// - create: PUT with `If-None-Match: *` (the store refuses it, 412, when the key exists);
// - update: PUT with `If-Match: <ETag read>` (refused when anyone wrote the record since);
// - delete: first an update to a tombstone (so exactly one deleter wins; `If-Match: <version>` when the
//   caller names one), then the object's removal (DELETE has no condition on radosgw 16.2). A tombstone
//   reads as absent, and a create replaces one a crash left between the two steps.
// Each write carries a fresh random `write` id, which makes every version's ETag new (no A-B-A) and
// tells, when an answer is lost or ambiguous (a retry refused with 412, a 500 from a lost race), whether
// the write that was sent is the one stored.
// The version is the ETag without quotes: radosgw 16.2 compares If-Match with the bare ETag (a quoted
// one never matches there).

import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { StorageError } from './errors';
import { readOrSkip } from './record-listing';
import { deadline, listObjects } from './s3-client';
import type { S3Settings } from './s3-config';
import { s3Code, s3Error, s3Status } from './s3-errors';
import type { JsonRecord, ListOptions, RecordStore, Versioned } from './types';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const VERSION = /^[A-Za-z0-9-]{1,128}$/;
/** Records are small; anything larger under records/ is not one of ours. */
const MAX_RECORD_BYTES = 1024 * 1024;
/** Rounds of read-then-tombstone a delete tries while other instances keep updating the record. */
const DELETE_ROUNDS = 16;

interface Stored {
  write: string;
  value?: JsonRecord;
  deleted?: true;
}

type Condition = { ifNoneMatch: '*' } | { ifMatch: string };

function checkKey(key: string): void {
  // Never the key in the message: it is an upload's name, which must not reach a log.
  if (!KEY.test(key)) throw new Error('Invalid record key.');
}

function bareEtag(etag: string | undefined): string {
  return (etag ?? '').replace(/^W\//, '').replaceAll('"', '');
}

function parseStored(text: string): Stored | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { write, value, deleted } = parsed as Record<string, unknown>;
  if (typeof write !== 'string') return null;
  if (deleted === true) return { write, deleted };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return { write, value: value as JsonRecord };
}

export class S3Records implements RecordStore<JsonRecord> {
  private readonly dir: string;

  constructor(
    private readonly client: S3Client,
    private readonly settings: S3Settings,
  ) {
    this.dir = `${settings.prefix}records/`;
  }

  keyOf(key: string): string {
    checkKey(key);
    return `${this.dir}${key}`;
  }

  /** The stored object as it is (a tombstone included) with its ETag, or null. */
  private async readStored(key: string): Promise<{ stored: Stored; etag: string } | null> {
    const objectKey = this.keyOf(key);
    try {
      const signal = deadline(this.settings);
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: objectKey }),
        {
          abortSignal: signal,
        },
      );
      if ((answer.ContentLength ?? 0) > MAX_RECORD_BYTES) {
        answer.Body?.transformToWebStream().cancel();
        // Not the key in the message: it may be an upload's name (the listing tells the key apart).
        throw new StorageError('unreadable', 'A record in the object store is too large to be one of ours.');
      }
      const stored = parseStored((await answer.Body?.transformToString('utf-8')) ?? '');
      if (!stored) {
        throw new StorageError(
          'unreadable',
          'A record in the object store is unreadable (not a record of ours).',
        );
      }
      return { stored, etag: bareEtag(answer.ETag) };
    } catch (err) {
      if (s3Code(err) === 'NoSuchKey' || s3Status(err) === 404) return null;
      throw s3Error(err, 'reading an upload record');
    }
  }

  /**
   * Writes `stored` if `condition` holds: true when it is stored, false when the condition failed.
   * When the answer is an error, reads the record back to tell which happened.
   */
  private async writeIf(key: string, stored: Stored, condition: Condition, what: string): Promise<boolean> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.keyOf(key),
          Body: JSON.stringify(stored),
          ContentType: 'application/json',
          ...('ifNoneMatch' in condition ? { IfNoneMatch: '*' } : { IfMatch: condition.ifMatch }),
        }),
        { abortSignal: deadline(this.settings) },
      );
      return true;
    } catch (err) {
      let now: Awaited<ReturnType<S3Records['readStored']>>;
      try {
        now = await this.readStored(key);
      } catch {
        throw s3Error(err, what);
      }
      // A retry of a write that had landed is refused: the record then carries this write's id.
      if (now?.stored.write === stored.write) return true;
      const status = s3Status(err);
      // 412: the condition failed; 409: AWS's answer to a conflicting write at the same moment.
      if (status === 412 || status === 409) return false;
      // Other answers (radosgw answers a lost race with 500): the condition decides, as read now.
      const stillHolds = 'ifNoneMatch' in condition ? now === null : now?.etag === condition.ifMatch;
      if (!stillHolds) return false;
      throw s3Error(err, what);
    }
  }

  private newWrite(): string {
    return randomBytes(12).toString('base64url');
  }

  async create(key: string, value: JsonRecord): Promise<boolean> {
    checkKey(key);
    const what = 'storing an upload record';
    const stored: Stored = { write: this.newWrite(), value };
    if (await this.writeIf(key, stored, { ifNoneMatch: '*' }, what)) return true;
    // Refused: a live record, or a tombstone whose removal never came (a crash between the two steps of a
    // delete), which is absent and is replaced only if it is still that tombstone.
    const found = await this.readStored(key);
    if (!found?.stored.deleted) return false;
    return this.writeIf(key, stored, { ifMatch: found.etag }, what);
  }

  async read(key: string): Promise<Versioned<JsonRecord> | null> {
    // A key no record can have names no record: absent, like any other.
    if (!KEY.test(key)) return null;
    const found = await this.readStored(key);
    if (!found || found.stored.deleted || !found.stored.value) return null;
    return { value: found.stored.value, version: found.etag };
  }

  async update(key: string, version: string, value: JsonRecord): Promise<boolean> {
    if (!KEY.test(key) || !VERSION.test(version)) return false;
    return this.writeIf(
      key,
      { write: this.newWrite(), value },
      { ifMatch: version },
      'updating an upload record',
    );
  }

  async delete(key: string, version?: string): Promise<boolean> {
    if (!KEY.test(key)) return false;
    if (version !== undefined) return VERSION.test(version) && this.deleteAt(key, version);
    for (let round = 0; round < DELETE_ROUNDS; round++) {
      const found = await this.readStored(key);
      if (!found || found.stored.deleted) return false;
      if (await this.deleteAt(key, found.etag)) return true;
    }
    throw new StorageError(
      'unavailable',
      `The upload record ${key} kept changing while it was being deleted.`,
    );
  }

  /** Tombstones the record if it is still at `version`, then removes the object: true when it did. */
  private async deleteAt(key: string, version: string): Promise<boolean> {
    const tombstone: Stored = { write: this.newWrite(), deleted: true };
    if (!(await this.writeIf(key, tombstone, { ifMatch: version }, 'deleting an upload record')))
      return false;
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }),
        {
          abortSignal: deadline(this.settings),
        },
      );
    } catch {
      // The tombstone already makes the record absent for every instance; only the object remains.
    }
    return true;
  }

  /**
   * Proves that the store enforces conditional writes, which everything above rests on: some
   * S3-compatible stores accept If-None-Match and If-Match and ignore them. Uses a probe object under
   * records/ that no record key can name (a leading dot), and removes it. Call it once at start.
   */
  async verifyConditionalWrites(): Promise<void> {
    const Key = `${this.dir}.probe-${this.newWrite()}`;
    const put = (condition: { IfNoneMatch: string } | { IfMatch: string }) =>
      this.client
        .send(new PutObjectCommand({ Bucket: this.settings.bucket, Key, Body: 'probe', ...condition }), {
          abortSignal: deadline(this.settings),
        })
        .then(
          () => 'stored',
          (err) => {
            if (s3Status(err) === 412) return 'refused';
            throw s3Error(err, 'checking that the store honours conditional writes');
          },
        );
    try {
      const outcomes = [
        await put({ IfNoneMatch: '*' }),
        await put({ IfNoneMatch: '*' }),
        await put({ IfMatch: 'f'.repeat(32) }),
      ];
      if (outcomes.join() !== 'stored,refused,refused') {
        throw new StorageError(
          'unavailable',
          'The object store ignores conditional writes (If-None-Match, If-Match), so server instances could not share it safely.',
        );
      }
    } finally {
      await this.client
        .send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key }), {
          abortSignal: deadline(this.settings),
        })
        .catch(() => {});
    }
  }

  async *list(options: ListOptions = {}): AsyncIterable<Versioned<JsonRecord> & { key: string }> {
    for await (const object of listObjects(this.client, this.settings, this.dir, 'listing upload records')) {
      const key = object.key.slice(this.dir.length);
      if (!KEY.test(key)) continue;
      const record = await readOrSkip(this, key, options);
      if (record) yield { key, ...record };
    }
  }
}
