/**
 * Resuming an upload in parts after its connection broke off (a dropped link, a laptop asleep): the
 * parts in flight wait together, with backoff (backoff.ts), until the server answers which parts it
 * holds (`GET P/Parts/<id>`, hushdrop-api.ts); the held ones count as on the server and are never sent
 * again, the others are sent again. It goes on for as long as the server keeps the session; once it
 * answers 404 the upload fails as 'session-gone' (a new upload is a new session, and counts again).
 */
import { t } from '../i18n';
import { backoffMs, type Sleep } from './backoff';
import { UploadError } from './errors';
import type { PartsHeldAnswer } from './hushdrop-api';
import type { PartsSession } from './parts';
import { refusalChecked } from './response';
import type { TransportResponse } from './types';

/** Answers a proxy gives while the server behind it cannot be reached: as good as a broken connection. */
const PROXY_LOST = new Set([502, 503, 504]);

/** Whether `err` means the connection, not the server, failed: the upload waits and resumes. */
export function isLost(err: unknown): boolean {
  if (!(err instanceof UploadError)) return false;
  if (err.kind === 'network' || err.kind === 'timeout') return true;
  return err.kind === 'http' && err.status !== undefined && PROXY_LOST.has(err.status);
}

type GoneDetails = Pick<UploadError, 'status' | 'serverMessage'>;

/** The server no longer holds the session: the file must be sent again, as a new upload. */
export function sessionGoneError(details: GoneDetails = {}): UploadError {
  return new UploadError('session-gone', t('partsSessionGone'), details);
}

/**
 * Done's answer was lost and the server no longer holds the session (nor, as Hushdrop does until the
 * session's expiry, Done's answer): that Done most likely made the upload, but its link never arrived.
 */
export function doneLostError(details: GoneDetails = {}): UploadError {
  return new UploadError('session-gone', t('partsDoneLost'), details);
}

/** A 404 (a part's, or the held parts'): the server no longer holds the session. */
export function isSessionGone(err: unknown): boolean {
  return err instanceof UploadError && err.status === 404 && err.kind !== 'session-gone';
}

/**
 * The held parts' answer, untrusted: the indices held, or the UploadError it amounts to (404:
 * 'session-gone'; 502 to 504: an 'http' error that isLost).
 */
export function readHeldParts(answer: TransportResponse, session: PartsSession): Set<number> {
  const { status, contentType, body } = answer;
  let json: unknown;
  try {
    json = refusalChecked(status, contentType, body);
  } catch (err) {
    if (isSessionGone(err)) throw sessionGoneError(err as UploadError);
    throw err;
  }
  const unreadable = () =>
    new UploadError('bad-response', t('partsHeldUnreadable', String(status)), { status });
  const { held, parts } = (json ?? {}) as Partial<Record<keyof PartsHeldAnswer, unknown>>;
  if (status !== 200 || parts !== session.parts || !Array.isArray(held)) throw unreadable();
  const indices = new Set<number>();
  for (const range of held) {
    if (!Array.isArray(range) || range.length !== 2) throw unreadable();
    const [first, last] = range as unknown[];
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last)) throw unreadable();
    const [a, b] = [first as number, last as number];
    if (a < 0 || b < a || b >= session.parts) throw unreadable();
    for (let index = a; index <= b; index++) indices.add(index);
  }
  return indices;
}

/**
 * The waiting of one session's parts: a part whose send broke off calls `held()`, and every part that
 * does so while a round of asking is under way waits for the same answer.
 */
export class Reconnect {
  private round: Promise<ReadonlySet<number>> | undefined;
  private attempt = 0;

  constructor(
    /** Asks the server which parts it holds; rejects as readHeldParts does, or with a lost connection. */
    private readonly ask: () => Promise<ReadonlySet<number>>,
    private readonly sleep: Sleep,
    /** Aborted when the upload is cancelled or has failed: the waiting ends at once. */
    private readonly signal: AbortSignal,
    private readonly onWaiting: (waiting: boolean) => void = () => {},
  ) {}

  /** The parts the server holds, once it answers again; rejects when it no longer holds the session. */
  held(): Promise<ReadonlySet<number>> {
    this.round ??= this.run().finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  /** A part went through: the next break waits from the shortest pause again (not one under way). */
  flowing(): void {
    if (!this.round) this.attempt = 0;
  }

  private async run(): Promise<ReadonlySet<number>> {
    this.onWaiting(true);
    for (;;) {
      await this.sleep(backoffMs(this.attempt++), this.signal);
      try {
        const held = await this.ask();
        this.onWaiting(false);
        return held;
      } catch (err) {
        if (!isLost(err) || this.signal.aborted) throw err;
      }
    }
  }
}
