// A download from the store, as a stream that fails (with a StorageError) when the store stops sending,
// but never because its reader is slow: the idle clock runs only while the reader has room for bytes.

import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { StorageError } from './errors';
import { s3Error } from './s3-errors';

class StallGuard extends Transform {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly what: string,
  ) {
    super();
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), this.idleMs);
    this.timer.unref();
  }

  private check(): void {
    // A full buffer means the reader is the slow one; the store is not to blame.
    if (this.readableLength >= this.readableHighWaterMark) {
      this.arm();
      return;
    }
    this.destroy(new StorageError('unavailable', `The object store stopped sending while ${this.what}.`));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.arm();
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    clearTimeout(this.timer);
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    callback(err && s3Error(err, this.what));
  }
}

/** `body` (the store's answer) guarded against stalls longer than `idleMs`. */
export function guardedRead(body: Readable, idleMs: number, what: string): Readable {
  const guard = new StallGuard(idleMs, what);
  // Errors reach the reader through `guard`; destroying `guard` (the reader went away) ends the request.
  pipeline(body, guard, () => {});
  return guard;
}
