// The way an encrypted upload goes (stream or disk) from the figures earlier uploads left, and each
// finished upload's own figures kept for the next: lib/upload/transport-choice.ts decides, and
// platform/storage/transport-figures.ts keeps them. Only the endpoint's origin is used, never its path.
import type { LinkFormat } from '../../lib/crypto/link';
import {
  type Choice,
  chooseWay,
  type UploadSample,
  type UploadTarget,
  uploadEndpoint,
} from '../../lib/upload';
import { loadTransportFigures, recordTransportSample } from '../storage/transport-figures';

/** What one upload measured: the time of each phase it ran, in ms. */
export type Measured = { way: 'stream'; sendMs: number } | { way: 'disk'; encryptMs: number; sendMs: number };

function originOf(target: UploadTarget): string | undefined {
  try {
    return new URL(uploadEndpoint(target)).origin;
  } catch {
    return undefined;
  }
}

/**
 * The way for `size` plaintext bytes to `target`; `streamable` is shouldStream()'s answer, which the
 * figures can never overrule. The disk way for an address that is not a URL (it cannot stream).
 */
export async function chooseUploadWay(
  target: UploadTarget,
  format: LinkFormat,
  size: number,
  streamable: boolean,
): Promise<Choice> {
  const origin = originOf(target);
  if (!origin || !streamable) return { way: 'disk', reason: 'cannot stream' };
  return chooseWay(await loadTransportFigures(), { origin, format, size, streamable });
}

/** Keeps what a finished upload of `bytes` (as sent) measured; never fails the upload. */
export function noteUploadWay(
  target: UploadTarget,
  format: LinkFormat,
  bytes: number,
  choice: Choice,
  measured: Measured,
): void {
  const origin = originOf(target);
  if (!origin) return;
  const sample: UploadSample = { ...measured, origin, format, bytes, probe: choice.reason === 'probe' };
  // A write that fails costs the next choice a sample, nothing more.
  recordTransportSample(sample).catch(() => {});
}
