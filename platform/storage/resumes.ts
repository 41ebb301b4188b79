// What the upload page keeps to resume an upload in parts that a reload broke off
// (lib/upload/resume-record.ts: the session, the cipher with its key, the file's facts). Kept in the
// extension's session storage only: the browser holds it in memory, never on the profile's disk, and
// drops it when it closes. Each record names the tab whose page started it, and is offered to that
// tab alone (another tab may still be sending it); the background drops a tab's records when the tab
// closes. From Start until the upload ends, whichever way; a reload does not end it.
import { storage } from '@wxt-dev/storage';
import { watchLeaving } from '../../lib/upload/page-leaving';
import { type ResumeRecord, readRecord, recordOfFile } from '../../lib/upload/resume-record';

const PREFIX = 'resume.';

/** A record, with the profile it was sent with and the tab whose page started it. */
export interface KeptResume extends ResumeRecord {
  profileId: string;
  tabId: number;
}

interface Stored {
  record: string;
  profileId: string;
  tabId: number;
}

/**
 * Whether this page is being left (a reload, a closed tab): its requests then break off, and that
 * must not end the upload (no Abort, its record kept), so that it can resume after the reload.
 */
export const pageLeaving = watchLeaving(globalThis);

const keyOf = (sessionId: string) => `session:${PREFIX}${sessionId}` as const;

/**
 * Keeps what the upload of `file` needs to resume, before any of its parts is sent. A failure to keep
 * it does not stop the upload: only a resume after a reload is lost.
 */
export async function keepResume(
  file: File,
  fields: Omit<ResumeRecord, 'file'>,
  owner: Pick<KeptResume, 'profileId' | 'tabId'>,
): Promise<void> {
  try {
    const record = await recordOfFile(file, fields);
    await storage.setItem<Stored>(keyOf(fields.session.id), { record, ...owner });
  } catch {
    // Session storage full or refused, or the file unreadable (its upload will say so).
  }
}

/** Forgets the record of an upload that ended (not one that leaving the page broke off). */
export async function forgetResume(sessionId: string): Promise<void> {
  if (!pageLeaving()) await storage.removeItem(keyOf(sessionId));
}

/** Every record kept; stored values that are no record are removed. */
async function keptResumes(): Promise<KeptResume[]> {
  const all = await storage.snapshot('session');
  const kept: KeptResume[] = [];
  const garbled: `session:${string}`[] = [];
  for (const [key, value] of Object.entries(all)) {
    if (!key.startsWith(PREFIX)) continue;
    const v = (value ?? {}) as Partial<Record<keyof Stored, unknown>>;
    const record = readRecord(v.record);
    if (
      record &&
      key === PREFIX + record.session.id &&
      typeof v.profileId === 'string' &&
      typeof v.tabId === 'number'
    )
      kept.push({ ...record, profileId: v.profileId, tabId: v.tabId });
    else garbled.push(`session:${key}`);
  }
  if (garbled.length) await storage.removeItems(garbled);
  return kept;
}

/** The uploads an earlier life of the page in tab `tabId` left interrupted. */
export async function resumesOfTab(tabId: number): Promise<KeptResume[]> {
  return (await keptResumes()).filter((r) => r.tabId === tabId);
}

/** Background: tab `tabId` closed, and with it every upload its page could resume. */
export async function dropResumesOfTab(tabId: number): Promise<void> {
  const gone = await resumesOfTab(tabId);
  if (gone.length) await storage.removeItems(gone.map((r) => keyOf(r.session.id)));
}
