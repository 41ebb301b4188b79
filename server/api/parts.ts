// An upload in parts (docs: server/README.md, the protocol in the parts brief): Start binds and checks the
// form as a one-request upload would and opens a session; parts go straight into the store's write in
// parts; Done checks every part and finishes through `finishUpload`, so the record and the answer are a
// one-request upload's. Done is idempotent: the answer of the Done that made the upload replaces the session
// in the store, and every later Done (at any instance, until the session's expiry) gets it again; a Done
// that finds another one under way waits for its answer. Every refusal is a sentence, stores nothing for that request, and is sent after the
// request's body was read (up to a cap), so the client sees it rather than a reset.

import { Readable, Writable } from 'node:stream';
import { heldRanges, type PartsHeldAnswer, type PartsStartAnswer } from '../../lib/upload/hushdrop-api';
import { closeAfterReply, declaredLength, drain, readSmallBody } from '../http/body';
import { cutRequest } from '../http/cut';
import {
  bytesReadable,
  type Reply,
  replyAppError,
  replyJson,
  replyTooMany,
  tooLargeMessage,
} from '../http/responses';
import type { Reservation } from '../limits/byte-quotas';
import { isStorageError } from '../storage/errors';
import { PartLengthError, PartsMissingError, partSize, type Versioned } from '../storage/types';
import type { FinishedSession, PartsSession, StoredAnswer } from '../uploads/parts-sessions';
import type { Variant } from '../uploads/record';
import { bindForm } from './bound-form';
import type { ApiContext } from './context';
import { FIELDS_TOTAL_BYTES, receiveUpload } from './multipart';
import {
  finishUpload,
  type Links,
  linkFormatProblem,
  replyStorageError,
  type UploadRequest,
  unauthorized,
  whoUploads,
} from './upload';

/** A Start form holds fields only: at most FIELDS_TOTAL_BYTES of them, and room for their part headers. */
const START_FORM_LIMIT = 2 * FIELDS_TOTAL_BYTES;
/** S3 takes at most this many parts in one multipart upload; a Start that needs more is refused. */
export const MAX_PARTS = 10_000;
/** A refused part is read this far past its size before the connection is cut. */
const REFUSED_PART_SLACK = 1024 * 1024;
const INDEX = /^(0|[1-9][0-9]{0,8})$/;
const DECIMAL = /^[1-9][0-9]{0,15}$/;

export type PartsRequest = Omit<UploadRequest, 'variant'> & { variant: Variant };

function unknownSession(reply: Reply): void {
  replyAppError(
    reply,
    'There is no such upload in progress: it was finished, aborted or expired, or never started. Start it again.',
    404,
  );
}

/** A Done (or held parts) that waited FINISHING_WAIT_MS for another request's Done: 503, ask again. */
function stillFinishing(reply: Reply): void {
  replyAppError(
    reply,
    'This upload is being finished by an earlier request; ask again in a moment for its answer.',
    503,
    { 'Retry-After': '5' },
  );
}

/** Reads what is left of the body (up to `cap`, then cuts the connection after the answer), then answers. */
async function refuse(up: PartsRequest, cap: number, answer: () => void): Promise<void> {
  if ((await drain(up.body, cap)) === 'over-cap') closeAfterReply(up.req, up.res, up.body);
  answer();
}

export async function handlePartsStart(ctx: ApiContext, up: PartsRequest): Promise<void> {
  const { req, reply } = up;
  const who = await whoUploads(ctx, up.variant, req, up.address);
  if (!who.ok) return refuse(up, START_FORM_LIMIT, () => who.answer(reply));
  const { username } = who;

  const small = await readSmallBody(req, up.body, START_FORM_LIMIT);
  if (!small.ok) {
    if (small.why === 'gone') return;
    closeAfterReply(req, up.res, up.body);
    return replyAppError(
      reply,
      `The start of an upload in parts takes form fields only (at most ${FIELDS_TOTAL_BYTES / 1024} KiB of them), no file.`,
      413,
    );
  }
  const received = await receiveUpload<string>(Readable.from([small.bytes]), req.headers, {
    maxBytes: 0,
    // A file part is counted (and refused below), never kept.
    openFile: () => ({
      input: new Writable({ write: (_chunk, _encoding, done) => done() }),
      done: Promise.resolve(''),
    }),
    discard: async () => {},
  });
  if (received.formProblem) return replyAppError(reply, received.formProblem, 400);
  if (received.fileBytes > 0 || received.malformed)
    return replyAppError(
      reply,
      'The start of an upload in parts is a form with fields only; the file is sent afterwards, in parts.',
      400,
    );
  const { fields } = received;

  const totalText = fields.get('partstotal')?.trim() ?? '';
  if (!DECIMAL.test(totalText) || !Number.isSafeInteger(Number(totalText)))
    return replyAppError(
      reply,
      'partsTotal must be the number of bytes the parts will carry, a decimal number of at least 1.',
      400,
    );
  const totalBytes = Number(totalText);
  const fileName = fields.get('filename') ?? '';
  if (fileName === '') return replyAppError(reply, 'fileName (the original file name) is missing.', 400);
  const form = bindForm(fields);
  const { params } = form;
  if (params.encrypt)
    return replyAppError(
      reply,
      'An upload in parts carries client-encrypted or plain bytes only: send encrypt=false (the server does not encrypt parts).',
      400,
    );
  const formatProblem = linkFormatProblem(params, totalBytes);
  if (formatProblem) return replyAppError(reply, formatProblem, 400);

  const now = ctx.now();
  const maxUpload = ctx.settings.maxUploadBytes ?? Number.POSITIVE_INFINITY;
  if (totalBytes > maxUpload) return replyAppError(reply, tooLargeMessage(maxUpload), 413);
  const { partBytes, sessionsPerAddress } = ctx.settings.parts;
  const count = Math.ceil(totalBytes / partBytes);
  if (count > MAX_PARTS)
    return replyAppError(
      reply,
      `An upload in parts has at most ${MAX_PARTS.toLocaleString('en')} parts of ${bytesReadable(partBytes)}: at most ${bytesReadable(MAX_PARTS * partBytes)} in all.`,
      413,
    );
  const quota = ctx.limits.admitUpload(up.address, username, now);
  if (!quota.ok) return replyTooMany(reply, quota.message, quota.retryAfterMs);

  let reservation: Reservation | undefined;
  try {
    // The whole declared size is reserved now, before any part: sessions started at once (here or at
    // another instance) cannot pass the quota together, and an abort or expiry does not give it back.
    if (ctx.quotas.enabled) {
      const reserved = await ctx.quotas.reserve(up.address, username, totalBytes);
      if (!reserved.ok) return replyTooMany(reply, reserved.message, reserved.retryAfterMs);
      reservation = reserved.reservation;
    }
    const opened = await ctx.uploads.parts.open({
      blobId: ctx.uploads.newBlobId(),
      count,
      partBytes,
      totalBytes,
      address: up.address,
      ...(username !== undefined ? { username } : {}),
      variant: up.variant,
      form,
      fileName,
      dntHeader: req.headers.dnt === '1',
      httpVersion: req.httpVersion,
    });
    if (!opened.ok) {
      // Never started: its bytes can never come, so they go back.
      if (reservation) await ctx.quotas.release(reservation);
      return replyTooMany(
        reply,
        `Your address already has ${sessionsPerAddress} uploads in parts open; finish or abort one first.`,
        60_000,
      );
    }
    const { session } = opened;
    replyJson(reply, 201, {
      id: session.id,
      partBytes: session.partBytes,
      parts: session.count,
      expiresAt: new Date(session.expiresAt).toISOString(),
    } satisfies PartsStartAnswer);
  } catch (err) {
    if (reservation) await ctx.quotas.release(reservation).catch(() => {});
    if (isStorageError(err)) return replyStorageError(reply, err);
    throw err;
  }
}

/**
 * The session `id` (or what is left of it once finished) if it is live, of this variant, and the request is
 * allowed on it (its account, when it was started with one); otherwise answers and returns null.
 */
async function sessionFor(
  ctx: ApiContext,
  up: PartsRequest,
  id: string,
  answer: (refusal: () => void) => Promise<void>,
): Promise<Versioned<PartsSession | FinishedSession> | null> {
  const found = await ctx.uploads.parts.find(id);
  if (!found || found.value.variant !== up.variant) {
    await answer(() => unknownSession(up.reply));
    return null;
  }
  if (found.value.username !== undefined) {
    const who = await whoUploads(ctx, up.variant, up.req, up.address);
    if (!who.ok || who.username !== found.value.username) {
      await answer(() =>
        unauthorized(
          up.reply,
          'Unauthorized. This upload was started by another account (or none was sent).',
        ),
      );
      return null;
    }
  }
  return found;
}

/**
 * As sessionFor, once no other request's Done is under way on it (that Done's answer is what this request
 * then sees); answers 503 when it is still under way after FINISHING_WAIT_MS.
 */
async function settledSessionFor(
  ctx: ApiContext,
  up: PartsRequest,
  id: string,
): Promise<Versioned<PartsSession | FinishedSession> | null> {
  const found = await sessionFor(ctx, up, id, async (refusal) => refusal());
  if (!found) return null;
  // Whose it is and its variant never change: the checks above hold for what it becomes.
  const settled = await ctx.uploads.parts.settled(found);
  if (settled === 'busy') stillFinishing(up.reply);
  else if (!settled) unknownSession(up.reply);
  else return settled;
  return null;
}

/**
 * PUT of one part. The whole request has `parts.partDeadlineMs`: a part not received whole by then is cut
 * (408), whatever pace its client keeps, so that no part holds its session's write for long.
 */
export async function handlePartPut(ctx: ApiContext, up: PartsRequest, id: string, indexText: string) {
  const deadlineMs = ctx.settings.parts.partDeadlineMs;
  const deadline =
    deadlineMs > 0
      ? setTimeout(
          () =>
            cutRequest(up.req, up.res, 'part-deadline', {
              status: 408,
              message: `The part took longer than ${Math.round(deadlineMs / 1000)} seconds to arrive and has been cut off; send it again.`,
            }),
          deadlineMs,
        )
      : undefined;
  deadline?.unref();
  try {
    await receivePart(ctx, up, id, indexText);
  } finally {
    clearTimeout(deadline);
  }
}

async function receivePart(ctx: ApiContext, up: PartsRequest, id: string, indexText: string) {
  const { reply } = up;
  const partBytes = ctx.settings.parts.partBytes;
  const answer = (refusal: () => void) => refuse(up, partBytes + REFUSED_PART_SLACK, refusal);
  const found = await sessionFor(ctx, up, id, answer);
  if (!found) return;
  const session = found.value;
  if (session.kind === 'parts-finished')
    return answer(() =>
      replyAppError(reply, 'This upload is finished; its parts can no longer change.', 409),
    );
  if (session.state !== 'open')
    return answer(() =>
      replyAppError(reply, 'This upload is being finished; its parts can no longer change.', 409),
    );
  if (!INDEX.test(indexText) || Number(indexText) >= session.count)
    return answer(() =>
      replyAppError(
        reply,
        `The part's index must be a decimal number from 0 to ${session.count - 1}, without leading zeros.`,
        400,
      ),
    );
  const index = Number(indexText);
  const expected = partSize(session, index);
  const declared = declaredLength(up.req);
  if (declared === undefined)
    return answer(() =>
      replyAppError(reply, `A part needs a Content-Length (part ${index} has ${expected} bytes).`, 411),
    );
  if (declared !== expected)
    return answer(() =>
      replyAppError(
        reply,
        `Part ${index} has ${expected} bytes, not ${declared}. Nothing of it was kept.`,
        400,
      ),
    );
  // An abort or the sweeper's expiry cuts this part rather than wait for its client.
  const arrived = ctx.uploads.parts.arrivingPart(session.id, (why) =>
    cutRequest(up.req, up.res, why, {
      status: 404,
      message: `This upload was ${why} while the part arrived; nothing of it was kept.`,
    }),
  );
  try {
    await ctx.uploads.storage.blobs.putPart(session.blobId, session.handle, session, index, up.body);
  } catch (err) {
    if (err instanceof PartLengthError)
      return answer(() => replyAppError(reply, `Part ${index}: ${err.message} Nothing of it was kept.`, 400));
    if (isStorageError(err, 'not-found')) return answer(() => unknownSession(reply));
    if (isStorageError(err)) return answer(() => replyStorageError(reply, err));
    // The body broke off (the client went away, or it was cut): that index is simply absent, and no one
    // is left to answer.
    if (up.req.destroyed || !up.req.complete) return;
    throw err;
  } finally {
    arrived();
  }
  reply(204, {}, Buffer.alloc(0));
}

/**
 * Which parts the store holds whole: what a client that lost its connection need not send again. Once Done
 * made the upload: every part, and `finished` (a client whose Done's answer was lost sends Done again).
 */
export async function handlePartsHeld(ctx: ApiContext, up: PartsRequest, id: string) {
  const { reply } = up;
  const found = await settledSessionFor(ctx, up, id);
  if (!found) return;
  const session = found.value;
  if (session.kind === 'parts-finished')
    return replyHeld(reply, session, session.count > 0 ? [[0, session.count - 1]] : [], true);
  let held: number[];
  try {
    held = await ctx.uploads.storage.blobs.heldParts(session.blobId, session.handle, session);
  } catch (err) {
    if (isStorageError(err, 'not-found')) return unknownSession(reply);
    if (isStorageError(err)) return replyStorageError(reply, err);
    throw err;
  }
  replyHeld(reply, session, heldRanges(held), false);
}

function replyHeld(
  reply: Reply,
  session: PartsSession | FinishedSession,
  held: Array<[number, number]>,
  finished: boolean,
): void {
  replyJson(
    reply,
    200,
    {
      id: session.id,
      partBytes: session.partBytes,
      parts: session.count,
      held,
      expiresAt: new Date(session.expiresAt).toISOString(),
      ...(finished ? { finished: true } : {}),
    } satisfies PartsHeldAnswer,
    { 'Cache-Control': 'no-store' },
  );
}

function replyStored(reply: Reply, answer: StoredAnswer): void {
  reply(answer.status, answer.headers, Buffer.from(answer.body, 'utf8'));
}

/** How often a Done that lost the claim to another request's Done looks at the session again. */
const DONE_TRIES = 3;

export async function handlePartsDone(ctx: ApiContext, up: PartsRequest, id: string, links: Links) {
  for (let i = 0; i < DONE_TRIES; i++) {
    const found = await settledSessionFor(ctx, up, id);
    if (!found) return;
    // A Done repeated (its answer was lost, or two raced): the answer of the one that made the upload.
    if (found.value.kind === 'parts-finished') return replyStored(up.reply, found.value.answer);
    const finishing = await finishSession(ctx, up, { value: found.value, version: found.version }, links);
    if (finishing !== 'claimed-elsewhere') return;
  }
  stillFinishing(up.reply);
}

/**
 * Checks the parts, claims the session (exactly one Done wins, here or at another instance: a
 * compare-and-swap of its record) and makes the upload; 'claimed-elsewhere' when another Done won.
 */
async function finishSession(
  ctx: ApiContext,
  up: PartsRequest,
  found: Versioned<PartsSession>,
  links: Links,
): Promise<'answered' | 'claimed-elsewhere'> {
  const { reply } = up;
  const session = found.value;
  const { blobs } = ctx.uploads.storage;
  const answered = (send: () => void) => {
    send();
    return 'answered' as const;
  };
  const partsMissing = (missing: number) =>
    answered(() =>
      replyAppError(
        reply,
        `${missing} of the upload's ${session.count} parts ${missing === 1 ? 'is' : 'are'} missing; send ${missing === 1 ? 'it' : 'them'}, then finish again.`,
        409,
      ),
    );
  try {
    // Parts missing are told without writing anything (the store may be full).
    const missing = session.count - (await blobs.heldParts(session.blobId, session.handle, session)).length;
    if (missing > 0) return partsMissing(missing);
  } catch (err) {
    if (isStorageError(err, 'not-found')) return answered(() => unknownSession(reply));
    if (isStorageError(err)) return answered(() => replyStorageError(reply, err));
    throw err;
  }
  if (!(await ctx.uploads.parts.claim(found))) return 'claimed-elsewhere';
  try {
    await blobs.completeParts(session.blobId, session.handle, session);
  } catch (err) {
    // A part replaced or removed between the check and now (a client racing its own Done).
    if (err instanceof PartsMissingError) {
      await ctx.uploads.parts.reopen(session.id).catch(() => {});
      return partsMissing(err.missing);
    }
    if (isStorageError(err, 'not-found')) {
      await ctx.uploads.parts.end(session);
      return answered(() => unknownSession(reply));
    }
    await ctx.uploads.parts.reopen(session.id).catch(() => {});
    if (isStorageError(err)) return answered(() => replyStorageError(reply, err));
    throw err;
  }
  // The bytes are a blob now. The answer is kept before it is sent: a Done repeated at any instance, even
  // while this one's answer is on its way, gets the same. One that did not make the upload (the store
  // failed while recording it: the bytes are gone) ends the session, so a repeat finds nothing.
  let answer: StoredAnswer | undefined;
  let made = false;
  try {
    made = await finishUpload(ctx, {
      variant: session.variant,
      reply: (status, headers, body) => {
        answer = { status, headers, body: body.toString('utf8') };
      },
      links,
      address: up.address,
      username: session.username,
      form: session.form,
      file: { blobId: session.blobId, size: session.totalBytes, filename: session.fileName, mimeType: '' },
      speculation: null,
      dntHeader: session.dntHeader,
      httpVersion: session.httpVersion,
    });
  } finally {
    const { parts } = ctx.uploads;
    // Unkept (the store failed), the answer is still sent; the session then ends, so that a repeat finds
    // nothing rather than a Done under way until the session expires.
    if (made && answer) await parts.finish(session, answer).catch(() => parts.end(session).catch(() => {}));
    else await parts.end(session).catch(() => {});
  }
  if (answer) replyStored(reply, answer);
  return 'answered';
}

export async function handlePartsAbort(ctx: ApiContext, up: PartsRequest, id: string) {
  const found = await ctx.uploads.parts.find(id);
  // Unknown, expired or of the other variant: nothing this request may remove (the sweeper removes the expired).
  if (found && found.value.variant === up.variant) {
    if (!(await sessionFor(ctx, up, id, async (refusal) => refusal()))) return;
    // Once finished there is nothing to abort: the upload is made (its deletion key removes it), and its
    // answer stays for a repeated Done.
    if (found.value.kind === 'parts-session') await ctx.uploads.parts.abort(found.value);
  }
  up.reply(204, {}, Buffer.alloc(0));
}
