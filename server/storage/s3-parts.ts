// A blob written in parts on S3: one multipart upload per session, whose id is the session's handle, so
// that any instance can add a part or finish it (nothing about it is in any instance's memory). Part k of
// the protocol is the multipart upload's part k+1, streamed with its exact ContentLength; Done lists the
// parts the store holds, checks each one's size, and completes the upload with exactly those: the object
// appears whole as the ordinary blob, without a copy.

import { type Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { StorageError } from './errors';
import { deadline } from './s3-client';
import type { S3Settings } from './s3-config';
import { s3Code, s3Error, s3Status } from './s3-errors';
import { PartLengthError, type PartsLayout, PartsMissingError, partSize } from './types';

function isGone(err: unknown): boolean {
  return s3Code(err) === 'NoSuchUpload' || s3Status(err) === 404;
}

function gone(id: string): StorageError {
  return new StorageError('not-found', `No upload in parts for ${id}.`);
}

export class S3Parts {
  constructor(
    private readonly client: S3Client,
    private readonly settings: S3Settings,
  ) {}

  async begin(key: string): Promise<string> {
    try {
      const answer = await this.client.send(
        new CreateMultipartUploadCommand({ Bucket: this.settings.bucket, Key: key }),
        { abortSignal: deadline(this.settings) },
      );
      if (!answer.UploadId) throw new Error('The store gave no upload id.');
      return answer.UploadId;
    } catch (err) {
      throw s3Error(err, 'starting an upload in parts');
    }
  }

  async put(id: string, key: string, handle: string, layout: PartsLayout, index: number, body: Readable) {
    const expected = partSize(layout, index);
    // The body goes to the store as it arrives. A broken body, or one byte too many or too few, ends the
    // store's request at once (`cut`; the SDK would otherwise wait for the rest), so the store keeps
    // nothing of it.
    const cut = new AbortController();
    const { settings } = this;
    const storeSilent = new StorageError(
      'unavailable',
      'The object store did not answer in time while storing a part.',
    );
    let answerDue: NodeJS.Timeout | undefined;
    let lengthError: PartLengthError | undefined;
    let bodyError: unknown;
    let seen = 0;
    const guard = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen > expected) {
          lengthError = new PartLengthError(expected, 'more');
          cut.abort(lengthError);
          return callback(lengthError);
        }
        callback(null, chunk);
      },
      flush(callback) {
        if (seen !== expected) {
          lengthError = new PartLengthError(expected, seen);
          cut.abort(lengthError);
          return callback(lengthError);
        }
        // Every byte is on its way: from now on the store has its usual time to answer.
        answerDue = setTimeout(() => cut.abort(storeSilent), settings.requestTimeoutMs);
        callback();
      },
    });
    body.on('error', (err) => {
      bodyError ??= err;
      guard.destroy(err);
      cut.abort(err);
    });
    // Its failures are reported through lengthError and bodyError (the SDK may have stopped listening).
    guard.on('error', () => {});
    body.pipe(guard);
    try {
      await this.client.send(
        new UploadPartCommand({
          Bucket: this.settings.bucket,
          Key: key,
          UploadId: handle,
          PartNumber: index + 1,
          Body: guard,
          ContentLength: expected,
        }),
        // A streamed body cannot be sent twice (one attempt), and it takes as long as its sender does: the
        // client's own pace is policed by the server's slow-client cut (which breaks the body, so `cut`),
        // the store's answer after the last byte by the timer in flush().
        { abortSignal: cut.signal, requestTimeout: 0 },
      );
    } catch (err) {
      body.unpipe(guard);
      guard.destroy();
      if (cut.signal.reason === storeSilent) throw storeSilent;
      if (lengthError) throw lengthError;
      if (bodyError !== undefined) throw bodyError;
      if (isGone(err) || (s3Status(err) === undefined && (await this.isAborted(key, handle)))) throw gone(id);
      throw s3Error(err, 'storing a part');
    } finally {
      clearTimeout(answerDue);
    }
  }

  /**
   * Whether the multipart upload is gone. A store that refuses a part of an aborted upload may answer
   * and close before the body is sent (Ceph), so the sender sees only a broken pipe: ask again.
   */
  private async isAborted(key: string, handle: string): Promise<boolean> {
    try {
      await this.client.send(
        new ListPartsCommand({ Bucket: this.settings.bucket, Key: key, UploadId: handle, MaxParts: 1 }),
        { abortSignal: deadline(this.settings, 1) },
      );
      return false;
    } catch (err) {
      return isGone(err);
    }
  }

  /** The parts the store holds whole (the right size), by part number, with their ETags. */
  private async whole(
    id: string,
    key: string,
    handle: string,
    layout: PartsLayout,
  ): Promise<Map<number, string>> {
    const etags = new Map<number, string>();
    try {
      let PartNumberMarker: string | undefined;
      for (;;) {
        const page = await this.client.send(
          new ListPartsCommand({
            Bucket: this.settings.bucket,
            Key: key,
            UploadId: handle,
            PartNumberMarker,
          }),
          { abortSignal: deadline(this.settings) },
        );
        for (const part of page.Parts ?? []) {
          const index = (part.PartNumber ?? 0) - 1;
          if (index < 0 || index >= layout.count || !part.ETag) continue;
          if (part.Size === partSize(layout, index)) etags.set(part.PartNumber!, part.ETag);
        }
        if (!page.IsTruncated) return etags;
        PartNumberMarker = page.NextPartNumberMarker;
      }
    } catch (err) {
      if (isGone(err)) throw gone(id);
      throw s3Error(err, 'listing the parts of an upload');
    }
  }

  /** ListParts names only parts whose upload completed: one still arriving is not held. */
  async held(id: string, key: string, handle: string, layout: PartsLayout): Promise<number[]> {
    const whole = await this.whole(id, key, handle, layout);
    return [...whole.keys()].map((number) => number - 1).sort((a, b) => a - b);
  }

  async complete(id: string, key: string, handle: string, layout: PartsLayout): Promise<{ size: number }> {
    const etags = await this.whole(id, key, handle, layout);
    if (etags.size < layout.count) throw new PartsMissingError(layout.count - etags.size);
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: key,
          UploadId: handle,
          MultipartUpload: {
            Parts: [...etags].sort(([a], [b]) => a - b).map(([PartNumber, ETag]) => ({ PartNumber, ETag })),
          },
        }),
        // Completing takes the store a while for many parts: a request's time per 100 parts, at least one.
        { abortSignal: deadline(this.settings, 1 + Math.ceil(layout.count / 100)) },
      );
    } catch (err) {
      if (isGone(err)) throw gone(id);
      // A part replaced between the listing and now: its listed ETag no longer matches.
      if (s3Code(err) === 'InvalidPart' || s3Code(err) === 'InvalidPartOrder') throw new PartsMissingError(1);
      throw s3Error(err, 'finishing an upload in parts');
    }
    return { size: layout.totalBytes };
  }

  async abort(key: string, handle: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.settings.bucket, Key: key, UploadId: handle }),
        { abortSignal: deadline(this.settings) },
      );
    } catch (err) {
      if (!isGone(err)) throw s3Error(err, 'removing an upload in parts');
    }
  }
}
