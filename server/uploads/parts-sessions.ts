// Uploads in parts between Start and Done: each session is a record in the record store, so a part or the
// Done may reach any instance. Two kinds of records live next to the uploads' under keys no upload name
// can be (UPLOAD_NAME allows no `-` before the first dot):
//   parts-<id>                 a session: where its bytes go, how they are cut, the form to finish with;
//                              once its Done made the upload, replaced by the finished record: that Done's
//                              answer, which a repeated Done (at any instance) gets again until the session's
//                              expiry, when the sweeper removes it;
//   parts-address-<hash>       the sessions one client address holds open (its limit holds across instances).
// Both are changed by compare-and-swap only. An address record is deleted (at the version read, so a slot
// taken meanwhile is never lost) when its last session ends or the sweeper finds all of them expired: no
// trace of an address outlives its uploads. The sweeper (uploads.ts) removes expired ones.

import { createHash } from 'node:crypto';
import { randomText } from '../../lib/crypto/text';
import { type BoundForm, bindForm, parseBoundForm } from '../api/bound-form';
import type { PartsSettings } from '../config/settings';
import { addressKey } from '../http/client';
import { StorageError } from '../storage/errors';
import type { JsonRecord, PartsLayout, Storage, Versioned } from '../storage/types';
import type { Variant } from './record';

/** Session ids: 24 of 62 characters, about 143 random bits (the protocol asks for at least 128). */
const ID_LENGTH = 24;
const ID = /^[A-Za-z0-9]{24,64}$/;
const SESSION_PREFIX = 'parts-';
const ADDRESS_PREFIX = 'parts-address-';
const CAS_TRIES = 50;
/** How long a Done (or a held-parts request) waits for another request's Done under way before it says so. */
export const FINISHING_WAIT_MS = 15_000;
/**
 * A Done under way this long is taken for one whose instance died mid-way: the session is then treated as
 * gone (404), so that its client says the link may never have arrived rather than waiting until the session
 * expires. Far longer than completing 10,000 parts takes.
 */
export const FINISHING_ABANDONED_MS = 10 * 60_000;
/** The longest pause between two looks at a session being finished (from 20 ms, doubling). */
const FINISHING_POLL_MAX_MS = 500;

export interface PartsSession extends PartsLayout {
  kind: 'parts-session';
  id: string;
  blobId: string;
  /** What the store needs to go on with the write (S3: the multipart upload's id; disk: ''). */
  handle: string;
  createdAt: number;
  expiresAt: number;
  /** `finishing` while a Done runs: parts are refused, a second Done waits for its answer. */
  state: 'open' | 'finishing';
  /** When the Done now running claimed it. */
  finishingSince?: number;
  /** The address key it counts against. */
  address: string;
  /** The account that started it: every later request must carry the same one. */
  username?: string;
  variant: Variant;
  /** The Start form as bound (never the form itself), which Done finishes with as a one-request upload. */
  form: BoundForm;
  fileName: string;
  dntHeader: boolean;
  httpVersion: string;
}

/** An answer as sent: what a repeated Done sends again, byte for byte. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as UTF-8 text (it is JSON). */
  body: string;
}

/**
 * What is left of a session once its Done made the upload: that Done's answer, and what the other requests
 * of the session need (whose it is, how it was cut, when it expires). Neither its address nor its form.
 */
export interface FinishedSession {
  kind: 'parts-finished';
  id: string;
  variant: Variant;
  username?: string;
  count: number;
  partBytes: number;
  expiresAt: number;
  answer: StoredAnswer;
}

interface AddressSlots {
  kind: 'parts-address';
  /** Session id → when it expires. */
  sessions: Record<string, number>;
}

export type NewSession = Omit<PartsSession, 'kind' | 'id' | 'state' | 'createdAt' | 'expiresAt' | 'handle'>;

export function isSessionId(id: string): boolean {
  return ID.test(id);
}

const sessionKey = (id: string) => `${SESSION_PREFIX}${id}`;
const addressRecordKey = (address: string) =>
  `${ADDRESS_PREFIX}${createHash('sha256').update(address).digest('hex').slice(0, 32)}`;

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

/** Sessions stored by earlier versions kept the Start form's fields (lower-cased names) and bind them now. */
function formOf(r: { form?: unknown; fields?: unknown }): BoundForm | null {
  if (r.form !== undefined) return parseBoundForm(r.form);
  const { fields } = r;
  if (typeof fields !== 'object' || fields === null) return null;
  if (!Object.values(fields).every((v) => typeof v === 'string')) return null;
  return bindForm(new Map(Object.entries(fields as Record<string, string>)));
}

export function parseSession(json: JsonRecord): PartsSession | null {
  const r = json as Partial<Record<keyof PartsSession | 'fields', unknown>>;
  const form = formOf(r);
  const ok =
    r.kind === 'parts-session' &&
    typeof r.id === 'string' &&
    ID.test(r.id) &&
    typeof r.blobId === 'string' &&
    typeof r.handle === 'string' &&
    isCount(r.count) &&
    isCount(r.partBytes) &&
    isCount(r.totalBytes) &&
    Number.isFinite(r.createdAt) &&
    Number.isFinite(r.expiresAt) &&
    (r.state === 'open' || r.state === 'finishing') &&
    (r.finishingSince === undefined || Number.isFinite(r.finishingSince)) &&
    typeof r.address === 'string' &&
    (r.username === undefined || typeof r.username === 'string') &&
    (r.variant === 'legacy' || r.variant === 'current') &&
    form !== null &&
    typeof r.fileName === 'string' &&
    typeof r.dntHeader === 'boolean' &&
    typeof r.httpVersion === 'string';
  if (!ok) return null;
  const { fields: _fields, ...session } = json as unknown as PartsSession & { fields?: unknown };
  return { ...session, form };
}

function parseAnswer(json: unknown): StoredAnswer | null {
  if (typeof json !== 'object' || json === null) return null;
  const { status, headers, body } = json as Record<string, unknown>;
  const ok =
    Number.isSafeInteger(status) &&
    typeof body === 'string' &&
    typeof headers === 'object' &&
    headers !== null &&
    Object.values(headers).every((v) => typeof v === 'string');
  return ok ? (json as StoredAnswer) : null;
}

export function parseFinished(json: JsonRecord): FinishedSession | null {
  const r = json as Partial<Record<keyof FinishedSession, unknown>>;
  const ok =
    r.kind === 'parts-finished' &&
    typeof r.id === 'string' &&
    ID.test(r.id) &&
    (r.variant === 'legacy' || r.variant === 'current') &&
    (r.username === undefined || typeof r.username === 'string') &&
    isCount(r.count) &&
    isCount(r.partBytes) &&
    Number.isFinite(r.expiresAt) &&
    parseAnswer(r.answer) !== null;
  return ok ? (json as unknown as FinishedSession) : null;
}

function parseSlots(json: JsonRecord): AddressSlots | null {
  if (json.kind !== 'parts-address' || typeof json.sessions !== 'object' || json.sessions === null)
    return null;
  return Object.values(json.sessions).every((v) => Number.isFinite(v))
    ? (json as unknown as AddressSlots)
    : null;
}

export type Opened = { ok: true; session: PartsSession } | { ok: false; why: 'too-many' };

/** Why a session ended before its Done: its client aborted it, or it expired (the sweeper). */
export type SessionEnd = 'aborted' | 'expired';

export class PartsSessions {
  /**
   * Parts arriving at this process, by session id: what cuts each. An abort never waits for a client: it
   * cuts them first (a part at another instance finds the session gone when it ends, or its deadline cuts it).
   */
  private readonly arriving = new Map<string, Set<(why: SessionEnd) => void>>();

  constructor(
    private readonly storage: Storage,
    private readonly settings: PartsSettings,
    private readonly now: () => number,
  ) {}

  /** Starts a session: an address slot, the store's write in parts, then the record (undone in reverse on failure). */
  async open(fresh: NewSession): Promise<Opened> {
    const id = randomText(ID_LENGTH);
    const createdAt = this.now();
    const expiresAt = createdAt + this.settings.sessionLifetimeMs;
    const address = addressKey(fresh.address);
    if (!(await this.takeSlot(address, id, expiresAt))) return { ok: false, why: 'too-many' };
    const { blobs, records } = this.storage;
    let handle: string | undefined;
    try {
      handle = await blobs.beginParts(fresh.blobId);
      const session: PartsSession = {
        ...fresh,
        kind: 'parts-session',
        id,
        handle,
        createdAt,
        expiresAt,
        state: 'open',
        address,
      };
      if (!(await records.create(sessionKey(id), { ...session })))
        throw new StorageError('unavailable', 'A new upload session id was already taken.');
      return { ok: true, session };
    } catch (err) {
      if (handle !== undefined) await blobs.abortParts(fresh.blobId, handle).catch(() => {});
      await this.giveSlot(address, id).catch(() => {});
      throw err;
    }
  }

  /**
   * The session `id` with its version while it lives, open or finishing, or what is left of it once its
   * Done made the upload; null when unknown, malformed, or expired (finished or not).
   */
  async find(id: string): Promise<Versioned<PartsSession | FinishedSession> | null> {
    if (!isSessionId(id)) return null;
    const stored = await this.storage.records.read(sessionKey(id));
    const session = stored ? (parseSession(stored.value) ?? parseFinished(stored.value)) : null;
    if (!stored || !session || session.id !== id) return null;
    if (this.now() >= session.expiresAt) return null;
    return { value: session, version: stored.version };
  }

  /**
   * `found` once no Done is under way on it (here or at another instance): as that Done left it (finished,
   * open again, or gone: null). 'busy' when it is still being finished after FINISHING_WAIT_MS (a slow store,
   * or an instance that died mid-Done); gone (null) once that Done has run FINISHING_ABANDONED_MS.
   */
  async settled(
    found: Versioned<PartsSession | FinishedSession>,
  ): Promise<Versioned<PartsSession | FinishedSession> | null | 'busy'> {
    let current: Versioned<PartsSession | FinishedSession> | null = found;
    const until = Date.now() + FINISHING_WAIT_MS;
    for (let pause = 20; current?.value.kind === 'parts-session' && current.value.state === 'finishing'; ) {
      const since = current.value.finishingSince ?? current.value.createdAt;
      if (this.now() - since >= FINISHING_ABANDONED_MS) return null;
      if (Date.now() >= until) return 'busy';
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(2 * pause, FINISHING_POLL_MAX_MS);
      current = await this.find(found.value.id);
    }
    return current;
  }

  /** Marks the session as finishing: true for exactly one Done. */
  claim(found: Versioned<PartsSession>): Promise<boolean> {
    return this.storage.records.update(sessionKey(found.value.id), found.version, {
      ...found.value,
      state: 'finishing',
      finishingSince: this.now(),
    });
  }

  /** Opens a claimed session again (its Done found parts missing). */
  async reopen(id: string): Promise<void> {
    for (let i = 0; i < CAS_TRIES; i++) {
      const stored = await this.storage.records.read(sessionKey(id));
      const session = stored ? parseSession(stored.value) : null;
      if (!stored || !session) return;
      const { finishingSince: _, ...open } = session;
      const next = { ...open, state: 'open' as const };
      if (await this.storage.records.update(sessionKey(id), stored.version, { ...next })) return;
    }
  }

  /** Forgets the session (its record and its address slot); its bytes are the caller's. */
  async end(session: PartsSession): Promise<void> {
    await this.storage.records.delete(sessionKey(session.id));
    await this.giveSlot(session.address, session.id);
  }

  /**
   * Replaces the session its Done is finishing by the finished record holding `answer`, and gives its address
   * slot back. A session removed meanwhile (aborted, or swept at its expiry) stays removed.
   */
  async finish(session: PartsSession, answer: StoredAnswer): Promise<void> {
    const finished: FinishedSession = {
      kind: 'parts-finished',
      id: session.id,
      variant: session.variant,
      ...(session.username !== undefined ? { username: session.username } : {}),
      count: session.count,
      partBytes: session.partBytes,
      expiresAt: session.expiresAt,
      answer,
    };
    const key = sessionKey(session.id);
    for (let i = 0; i < CAS_TRIES; i++) {
      const stored = await this.storage.records.read(key);
      const current = stored && parseSession(stored.value);
      if (!stored || !current || current.blobId !== session.blobId) break;
      if (await this.storage.records.update(key, stored.version, { ...finished })) break;
    }
    await this.giveSlot(session.address, session.id);
  }

  /** Counts a part of session `id` as arriving here until the returned function is called; `cut` ends it. */
  arrivingPart(id: string, cut: (why: SessionEnd) => void): () => void {
    let cuts = this.arriving.get(id);
    if (!cuts) {
      cuts = new Set();
      this.arriving.set(id, cuts);
    }
    cuts.add(cut);
    return () => {
      cuts.delete(cut);
      if (cuts.size === 0 && this.arriving.get(id) === cuts) this.arriving.delete(id);
    };
  }

  /** Cuts the parts of the session still arriving here, then removes everything it stored, then the session. */
  async abort(session: PartsSession, why: SessionEnd = 'aborted'): Promise<void> {
    for (const cut of [...(this.arriving.get(session.id) ?? [])]) cut(why);
    await this.storage.blobs.abortParts(session.blobId, session.handle);
    await this.end(session);
  }

  private async takeSlot(address: string, id: string, expiresAt: number): Promise<boolean> {
    const limit = this.settings.sessionsPerAddress;
    const key = addressRecordKey(address);
    const { records } = this.storage;
    for (let i = 0; i < CAS_TRIES; i++) {
      const now = this.now();
      const stored = await records.read(key);
      const slots = (stored && parseSlots(stored.value)) ?? { kind: 'parts-address', sessions: {} };
      const live = Object.entries(slots.sessions).filter(([, until]) => until > now);
      if (limit > 0 && live.length >= limit) return false;
      const next: AddressSlots = {
        kind: 'parts-address',
        sessions: { ...Object.fromEntries(live), [id]: expiresAt },
      };
      const done = stored
        ? await records.update(key, stored.version, { ...next })
        : await records.create(key, { ...next });
      if (done) return true;
    }
    throw new StorageError(
      'unavailable',
      'Too many uploads in parts are starting from your address at once.',
    );
  }

  private async giveSlot(address: string, id: string): Promise<void> {
    const key = addressRecordKey(address);
    const { records } = this.storage;
    for (let i = 0; i < CAS_TRIES; i++) {
      const stored = await records.read(key);
      const slots = stored && parseSlots(stored.value);
      if (!stored || !slots || !(id in slots.sessions)) return;
      const sessions = { ...slots.sessions };
      delete sessions[id];
      const done =
        Object.keys(sessions).length === 0
          ? await records.delete(key, stored.version)
          : await records.update(key, stored.version, { kind: 'parts-address', sessions });
      if (done) return;
    }
  }

  /**
   * For the sweeper, given a record it does not know as an upload's: removes it when it is an expired
   * session (with its bytes) or an address record whose sessions all expired. Resolves with what it was:
   * `live` gives the write the sweep of open uploads must keep.
   */
  async sweepRecord(key: string, stored: Versioned<JsonRecord>): Promise<'expired' | 'live' | 'other'> {
    const now = this.now();
    const session = key.startsWith(SESSION_PREFIX) ? parseSession(stored.value) : null;
    if (session) {
      if (now < session.expiresAt) return 'live';
      await this.abort(session, 'expired');
      return 'expired';
    }
    const finished = key.startsWith(SESSION_PREFIX) ? parseFinished(stored.value) : null;
    if (finished) {
      // Its upload is an upload like any other now: only the answer kept for a repeated Done goes.
      if (now >= finished.expiresAt) await this.storage.records.delete(key, stored.version);
      return 'other';
    }
    const slots = key.startsWith(ADDRESS_PREFIX) ? parseSlots(stored.value) : null;
    if (slots && Object.values(slots.sessions).every((until) => until <= now)) {
      // Deleted only at the version read: a Start racing this sweep keeps its slot (and the record).
      await this.storage.records.delete(key, stored.version);
    }
    return 'other';
  }
}
