// Blobs as objects under <prefix>blobs/<id>. A put is a multipart upload fed while the bytes arrive
// (lib-storage's Upload): nothing is visible until it is completed, memory stays at about
// (partsInFlight + 2) × partSize, and on any failure the multipart upload is aborted and the object
// removed. What cannot be cleaned up then (the store is gone) the sweep removes later.

import { Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { StorageError } from './errors';
import { deadline, listObjects } from './s3-client';
import type { S3Settings } from './s3-config';
import { s3Code, s3Error, s3Status } from './s3-errors';
import { S3Parts } from './s3-parts';
import { guardedRead } from './s3-read-stream';
import {
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type PartsLayout,
  type PutOptions,
  partsKey,
} from './types';

const ID = /^[A-Za-z0-9]{1,64}$/;

function checkId(id: string): void {
  if (!ID.test(id)) throw new Error(`Invalid blob id: ${JSON.stringify(id)}`);
}

/** A multipart upload the store still holds open. */
export interface OpenUpload {
  key: string;
  uploadId: string;
  /** When it was started, by the store's clock, in ms since the epoch. */
  initiatedAt: number;
}

export class S3Blobs implements BlobStore {
  private readonly dir: string;

  constructor(
    private readonly client: S3Client,
    private readonly settings: S3Settings,
  ) {
    this.dir = `${settings.prefix}blobs/`;
    this.parts = new S3Parts(client, settings);
  }

  private readonly parts: S3Parts;

  /** Keys of failed puts whose cleanup the store did not answer (bounded: one per failed upload). */
  private readonly leftOver = new Set<string>();

  keyOf(id: string): string {
    checkId(id);
    return `${this.dir}${id}`;
  }

  async put(id: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const key = this.keyOf(id);
    // The store answers again after a failure: finish cleaning up what that failure left first.
    for (const left of [...this.leftOver]) if (await this.cleanUp(left)) this.leftOver.delete(left);
    const { signal } = options;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    // The body's own failure is the caller's to report, not the store's: keep it apart. (Not through
    // pipeline(): lib-storage ends its reading by destroying `counter`, which pipeline would report as
    // the body's failure.)
    let bodyError: unknown;
    body.on('error', (err) => {
      bodyError ??= err;
      counter.destroy(err);
    });
    body.pipe(counter);
    // An abort stops the feed; the upload then fails like on a broken body, and is cleaned up.
    const onAbort = () => counter.destroy(new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    // lib-storage reports the first failure of any of its parts, often only the stream it stopped
    // reading; the store's own answers tell what happened. When one part is refused (quota), another
    // in flight may break off first, so an answer of the store is preferred over a broken transfer.
    const storeErrors: unknown[] = [];
    const upload = new Upload({
      client: recordingErrors(this.client, storeErrors),
      params: { Bucket: this.settings.bucket, Key: key, Body: counter },
      partSize: this.settings.partSize,
      queueSize: this.settings.partsInFlight,
      // The cleanup below is bounded in time and finds uploads lib-storage never learnt the id of.
      leavePartsOnError: true,
    });
    try {
      await upload.done();
      if (signal?.aborted) throw new Error('aborted');
      return { size };
    } catch (err) {
      body.unpipe(counter);
      counter.destroy();
      body.destroy();
      if (!(await this.cleanUp(key))) this.leftOver.add(key);
      if (signal?.aborted) throw signal.reason;
      if (bodyError !== undefined) throw bodyError;
      throw s3Error(storeErrors.find(answeredByStore) ?? storeErrors[0] ?? err, 'storing an upload');
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * After a failed put: aborts the key's open multipart uploads and removes the object in case it was
   * completed after all (an answer lost on the way). Bounded to one request's time in all, so that the
   * uploader hears of the failure soon; what is left then (the store is gone), the sweep removes.
   */
  private async cleanUp(key: string): Promise<boolean> {
    const signal = deadline(this.settings, 1);
    try {
      for (const open of await this.openUploads(key, signal)) {
        if (open.key === key) await this.abortUpload(open, signal);
      }
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }), {
        abortSignal: signal,
      });
      return true;
    } catch {
      // The store is unreachable: the next put, or the sweep, aborts what is left once it is back.
      return false;
    }
  }

  async get(id: string, range?: ByteRange): Promise<Readable> {
    const key = this.keyOf(id);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return guardedRead(answer.Body as Readable, this.settings.readIdleTimeoutMs, 'reading an upload');
    } catch (err) {
      if (s3Code(err) === 'NoSuchKey' || s3Status(err) === 404) {
        throw new StorageError('not-found', `No stored bytes for ${id}.`);
      }
      // A range that starts past the end: no bytes, as a file read there gives.
      if (s3Status(err) === 416) return Readable.from([]);
      throw s3Error(err, 'reading an upload');
    }
  }

  async delete(id: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(id) }), {
        abortSignal: deadline(this.settings),
      });
    } catch (err) {
      throw s3Error(err, 'deleting an upload');
    }
  }

  async *list(): AsyncIterable<BlobInfo> {
    for await (const object of listObjects(this.client, this.settings, this.dir, 'listing uploads')) {
      const id = object.key.slice(this.dir.length);
      if (ID.test(id)) yield { id, size: object.size, modifiedAt: object.modifiedAt };
    }
  }

  // Writes in parts (s3-parts.ts): the handle is the multipart upload's id.
  beginParts(id: string): Promise<string> {
    return this.parts.begin(this.keyOf(id));
  }

  putPart(id: string, handle: string, layout: PartsLayout, index: number, body: Readable): Promise<void> {
    return this.parts.put(id, this.keyOf(id), handle, layout, index, body);
  }

  heldParts(id: string, handle: string, layout: PartsLayout): Promise<number[]> {
    return this.parts.held(id, this.keyOf(id), handle, layout);
  }

  completeParts(id: string, handle: string, layout: PartsLayout): Promise<{ size: number }> {
    return this.parts.complete(id, this.keyOf(id), handle, layout);
  }

  abortParts(id: string, handle: string): Promise<void> {
    return this.parts.abort(this.keyOf(id), handle);
  }

  /** Multipart uploads the store holds open under `keyPrefix` (default: all of this store's blobs). */
  async openUploads(keyPrefix = this.dir, signal?: AbortSignal): Promise<OpenUpload[]> {
    const found: OpenUpload[] = [];
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.settings.bucket,
          Prefix: keyPrefix,
          KeyMarker,
          UploadIdMarker,
        }),
        { abortSignal: signal ?? deadline(this.settings) },
      );
      for (const upload of page.Uploads ?? []) {
        if (upload.Key && upload.UploadId) {
          found.push({
            key: upload.Key,
            uploadId: upload.UploadId,
            initiatedAt: upload.Initiated?.getTime() ?? 0,
          });
        }
      }
      if (!page.IsTruncated) return found;
      KeyMarker = page.NextKeyMarker;
      UploadIdMarker = page.NextUploadIdMarker;
    }
  }

  private async abortUpload(open: OpenUpload, signal?: AbortSignal): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: open.key,
          UploadId: open.uploadId,
        }),
        { abortSignal: signal ?? deadline(this.settings) },
      );
    } catch (err) {
      // Gone already (completed or aborted by another instance): nothing to do.
      if (s3Code(err) !== 'NoSuchUpload' && s3Status(err) !== 404) throw err;
    }
  }

  /**
   * Aborts multipart uploads started more than `olderThanMs` ago (by the store's clock, compared with
   * `now`): what a crashed instance, or a put whose cleanup could not reach the store, left behind.
   * Choose `olderThanMs` above the longest an upload may take, so no running upload is cut off. Writes
   * in parts of live sessions (`keep`) may be older than that: they stay.
   */
  async sweepOpenUploads(
    olderThanMs: number,
    keep: ReadonlySet<string> = new Set(),
    now = Date.now(),
  ): Promise<number> {
    let aborted = 0;
    try {
      for (const open of await this.openUploads()) {
        if (now - open.initiatedAt < olderThanMs) continue;
        if (keep.has(partsKey(open.key.slice(this.dir.length), open.uploadId))) continue;
        await this.abortUpload(open);
        aborted++;
      }
    } catch (err) {
      throw s3Error(err, 'aborting abandoned uploads');
    }
    return aborted;
  }
}

/** Whether the store itself answered (with a status), rather than the transfer breaking. */
function answeredByStore(err: unknown): boolean {
  return s3Status(err) !== undefined;
}

/** `client`, with the failures of its requests added to `errors` as they happen. */
function recordingErrors(client: S3Client, errors: unknown[]): S3Client {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (...args: Parameters<S3Client['send']>) =>
        (target.send as (...a: typeof args) => Promise<unknown>)(...args).catch((err: unknown) => {
          errors.push(err);
          throw err;
        });
    },
  });
}
