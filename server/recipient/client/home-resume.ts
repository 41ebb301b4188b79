// Uploads a reload broke off, on the home page: what each needs to resume (lib/upload/resume-record.ts,
// the key among it) is kept in this tab's session storage only, never on the device, from Start until
// the upload ends whichever way (a reload or a closed tab does not end it). After a reload each one is
// offered, with Forget; a file chosen again that is the same file resumes it.
import { t } from '../../../lib/i18n';
import { watchLeaving } from '../../../lib/upload/page-leaving';
import {
  findResumed,
  type ResumeMatch,
  type ResumeRecord,
  readRecord,
  recordOfFile,
} from '../../../lib/upload/resume-record';
import type { Variant } from '../../../lib/upload/types';
import { saveName } from './names';
import { el } from './view';

const PREFIX = 'hushdrop.resume.';

/**
 * Whether the page is being left (a reload, a closed tab): its requests then break off, and that must
 * not end the upload (no Abort, its record kept), so that it can resume after the reload.
 */
export const pageLeaving = watchLeaving(globalThis);

/** The session storage, or none where the browser keeps it from the page (then nothing resumes). */
function store(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Keeps what the upload of `file` needs to resume, before any of its parts is sent. */
export async function keepRecord(file: File, fields: Omit<ResumeRecord, 'file'>): Promise<void> {
  const record = await recordOfFile(file, fields);
  try {
    store()?.setItem(PREFIX + fields.session.id, record);
  } catch {
    // The storage is full or refused: the upload goes on; only a resume after a reload is lost.
  }
}

/** Forgets the record of an upload that ended (not one that a reload broke off). */
export function forgetRecord(sessionId: string): void {
  if (!pageLeaving()) store()?.removeItem(PREFIX + sessionId);
}

/** The records kept in this tab; stored text that is no record is removed. */
function keptRecords(): ResumeRecord[] {
  const kept = store();
  if (!kept) return [];
  const records: ResumeRecord[] = [];
  for (const key of Object.keys(kept).filter((k) => k.startsWith(PREFIX))) {
    const record = readRecord(kept.getItem(key));
    // This page seals in the authenticated format only.
    if (record?.cipher.format === 'ece' && key === PREFIX + record.session.id) records.push(record);
    else kept.removeItem(key);
  }
  return records;
}

export type { ResumeMatch };

/**
 * The uploads interrupted in an earlier life of this tab, sent with `variant`: shown as notices in
 * `list` with Forget (`onForget` aborts the session), and taken by the file that resumes one.
 */
export function interruptedUploads(
  list: HTMLElement,
  variant: Variant,
  onForget: (record: ResumeRecord) => void,
) {
  const open = new Map<string, { record: ResumeRecord; notice: HTMLElement }>();
  const take = (record: ResumeRecord) => {
    open.get(record.session.id)?.notice.remove();
    open.delete(record.session.id);
  };
  for (const record of keptRecords()) {
    if (record.variant !== variant) continue;
    const name = saveName(record.file.name);
    const forget = el(
      'button',
      { type: 'button', className: 'forget', 'aria-label': t('resumeForgetNamed', name) },
      t('resumeForget'),
    );
    const notice = el('li', { className: 'interrupted' }, el('p', {}, t('resumeInterrupted', name)), forget);
    forget.addEventListener('click', () => {
      take(record);
      forgetRecord(record.session.id);
      onForget(record);
    });
    open.set(record.session.id, { record, notice });
    list.append(notice);
  }
  return {
    /**
     * What `file` is to the interrupted uploads. The first part is read (and hashed) only for one with
     * its name, size and time. A file that resumes one takes it: it is no longer offered.
     */
    async match(file: File): Promise<ResumeMatch> {
      const found = await findResumed(
        [...open.values()].map((o) => o.record),
        file,
      );
      // Still offered once its first part was read (a Forget meanwhile takes it).
      if (found.record && !open.has(found.record.session.id)) return {};
      if (found.record) take(found.record);
      return found;
    },
  };
}
