// The byte quotas of a one-request upload, charged as its file's bytes arrive: bytes pass on to the store
// only once they are reserved, so several uploads running at once (on one instance or several) never store
// more than the quota between them. Reservations are made per STEP_BYTES (and for the rest at the end): a
// few compare-and-swaps per upload, not one per chunk. Bytes that came in stay charged whatever happens next.

import { Transform, type TransformCallback } from 'node:stream';
import type { Admission } from '../limits/admission';

/** Bytes gathered before they are reserved together (at most this much is held here at a time). */
const STEP_BYTES = 4 * 1024 * 1024;

/** The quota said no: the upload stops, and the refusal says when to try again. */
export class QuotaRefusal extends Error {
  override readonly name = 'QuotaRefusal';
  constructor(readonly admission: Admission & { ok: false }) {
    super(admission.message);
  }
}

/** A pass-through that lets bytes on only once `reserve` took them; it fails with QuotaRefusal when refused. */
export function quotaGate(reserve: (bytes: number) => Promise<Admission>): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  const passHeld = async (gate: Transform): Promise<void> => {
    if (heldBytes === 0) return;
    const verdict = await reserve(heldBytes);
    if (!verdict.ok) throw new QuotaRefusal(verdict);
    for (const chunk of held) gate.push(chunk);
    held = [];
    heldBytes = 0;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < STEP_BYTES) return callback();
      passHeld(this).then(() => callback(), callback);
    },
    flush(callback: TransformCallback) {
      passHeld(this).then(() => callback(), callback);
    },
  });
}
