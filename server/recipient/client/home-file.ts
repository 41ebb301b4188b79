// One file on the home page: its progress and Cancel while it is sent, then its link with Copy, a QR
// code and its deletion link, or the sentence that says why it was not sent. Text is set as text. A file
// that is the same as an upload a reload broke off resumes it (home-resume.ts).
import { formatBytes, t } from '../../../lib/i18n';
import { jobShare } from '../../../lib/jobs/progress';
import { UploadError } from '../../../lib/upload/errors';
import {
  type PageUploadArgs,
  type PageUploaded,
  resumeFromPage,
  uploadFromPage,
} from '../../../lib/upload/page-upload';
import { Declined } from '../../../lib/upload/plan';
import { forgetRecord, keepRecord, type ResumeMatch } from './home-resume';
import { saveName } from './names';
import { qrCode } from './qr';
import { el } from './view';

/** A read-only field holding a link, with its label. */
function linkField(id: string, label: string, value: string): HTMLElement {
  const input = el('input', { id, type: 'text' });
  input.readOnly = true;
  input.value = value;
  input.spellcheck = false;
  return el('p', { className: 'field' }, el('label', { for: id }, label), input);
}

async function copy(text: string, field: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API here (an older engine, or not allowed): the selection and the browser's own copy.
    field.select();
    return document.execCommand('copy');
  }
}

function showResult(card: HTMLElement, n: number, link: string, deletion: string | undefined): void {
  const linkId = `link-${n}`;
  const copyButton = el('button', { type: 'button', className: 'copy' }, t('homeCopy'));
  const said = el('p', { role: 'status' });
  copyButton.addEventListener('click', async () => {
    const field = document.getElementById(linkId) as HTMLInputElement;
    said.textContent = (await copy(link, field)) ? t('homeCopied') : t('homeCopyFailed');
  });
  const qr = qrCode(link, t('homeQrLabel'));
  card.append(
    el('p', { className: 'done' }, t('homeDone')),
    linkField(linkId, t('homeLinkLabel'), link),
    copyButton,
    said,
    qr ?? el('p', { className: 'note' }, t('homeQrTooLong')),
    ...(deletion ? [linkField(`deletion-${n}`, t('homeDeletionLabel'), deletion)] : []),
  );
}

/** Sends one file, showing it in `list`; resolves once it has ended, whichever way. */
export async function sendFile(
  list: HTMLElement,
  n: number,
  file: File,
  args: Omit<PageUploadArgs, 'file' | 'name' | 'type' | 'signal' | 'onProgress' | 'onSession'>,
  tooLarge: string | undefined,
  resume: ResumeMatch = {},
): Promise<void> {
  // What the card says of resuming, under the file's name.
  const notes = el('div', { className: 'notes' });
  const card = el('li', { className: 'upload' }, el('p', { className: 'name' }, saveName(file.name)), notes);
  card.dataset.state = 'sending';
  list.append(card);
  const said = (key: 'resuming' | 'resumeNotSame' | 'resumeGone') =>
    notes.append(el('p', { className: 'note' }, t(key)));
  if (resume.notSame) said('resumeNotSame');
  if (tooLarge) {
    card.dataset.state = 'failed';
    card.append(el('div', { className: 'problem', role: 'alert' }, el('p', {}, tooLarge)));
    return;
  }
  const bar = el('progress', {});
  bar.max = 1;
  bar.value = 0;
  const status = el('p', { role: 'status' }, t('homeEncrypting'));
  const cancel = el('button', { type: 'button', className: 'cancel' }, t('homeCancel'));
  const stop = new AbortController();
  cancel.addEventListener('click', () => stop.abort());
  card.append(bar, status, cancel);
  // The session whose record is kept while it is sent (removed once it has ended, whichever way).
  let session = resume.record?.session.id;
  if (resume.record) {
    card.dataset.resuming = '';
    said('resuming');
  }
  const page: PageUploadArgs = {
    ...args,
    file,
    name: file.name,
    type: file.type,
    signal: stop.signal,
    async onSession(started, cipher) {
      if (started.id === session) return;
      session = started.id;
      await keepRecord(file, { session: started, variant: args.to.variant, cipher });
    },
    onProgress(p) {
      const share = jobShare(p);
      bar.value = share;
      // The connection broke off: the upload resumes by itself once the network is back.
      card.toggleAttribute('data-waiting', p.waiting === true);
      status.textContent = p.waiting
        ? t('uploadWaitingNetwork')
        : t('homeProgress', formatBytes(Math.round(share * file.size)), formatBytes(file.size));
    },
  };
  try {
    let up: PageUploaded | Declined | undefined = resume.record
      ? await resumeFromPage(page, resume.record)
      : undefined;
    if (up instanceof Declined) {
      // The server no longer holds it (it expired): a new upload, which counts again.
      forgetRecord(resume.record!.session.id);
      delete card.dataset.resuming;
      said('resumeGone');
      up = undefined;
    }
    up ??= await uploadFromPage(page);
    bar.remove();
    status.remove();
    cancel.remove();
    card.dataset.state = 'done';
    showResult(card, n, up.link, up.deletion);
  } catch (err) {
    bar.remove();
    cancel.remove();
    const cancelled = stop.signal.aborted || (err instanceof UploadError && err.kind === 'aborted');
    card.dataset.state = cancelled ? 'cancelled' : 'failed';
    if (cancelled) {
      status.textContent = t('homeCancelled');
      return;
    }
    status.remove();
    const reason = err instanceof Error ? err.message : String(err);
    card.append(el('div', { className: 'problem', role: 'alert' }, el('p', {}, t('homeFailed', reason))));
  } finally {
    if (session) forgetRecord(session);
  }
}
