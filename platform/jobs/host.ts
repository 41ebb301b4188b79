// The background's side of upload jobs: start them where they can run for long (offscreen
// document in Chromium, this background page in Firefox), track them, and tell the person.
import { browser } from 'wxt/browser';
import { displayName } from '../../lib/history/file-names';
import { t } from '../../lib/i18n';
import { activeProfile, uploadOptions } from '../../lib/settings';
import { type JobRequest, type JobState, sendMessage, type UploadSource } from '../messages';
import { loadSettings, updateProfile } from '../settings';
import { clipboardAllowed } from '../shortcuts';
import { newJobState } from './new-job';
import { changeJobs } from './state';

const OFFSCREEN = 'offscreen.html';
const action = browser.action ?? (browser as any).browserAction;

let creating: Promise<void> | undefined;
async function ensureOffscreen(): Promise<void> {
  const offscreen = (globalThis as any).chrome?.offscreen;
  if (await offscreen.hasDocument()) return;
  creating ??= offscreen
    .createDocument({
      url: OFFSCREEN,
      reasons: ['WORKERS', 'BLOBS', 'CLIPBOARD'],
      justification:
        'Encrypt and upload files without holding them in memory; copy the link; read the clipboard for the upload shortcut.',
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}

// Firefox runs jobs right here: its background is a page with XHR, OPFS and a clipboard.
const local = import.meta.env.FIREFOX ? import('./runner') : undefined;

async function dispatch(req: JobRequest): Promise<void> {
  if (local) {
    const { runJob } = await local;
    runJob(req, (s) => void onJobUpdate(s));
    return;
  }
  await ensureOffscreen();
  await sendMessage('runJob', req);
}

export async function copyText(text: string): Promise<boolean> {
  if (local)
    return navigator.clipboard.writeText(text).then(
      () => true,
      () => false,
    );
  await ensureOffscreen();
  return sendMessage('copyText', text).catch(() => false);
}

export async function startJob(source: UploadSource, profileId?: string): Promise<string> {
  const settings = await loadSettings();
  const profile = settings.profiles.find((p) => p.id === profileId) ?? activeProfile(settings);
  const jobId = crypto.randomUUID();
  const req: JobRequest = {
    jobId,
    source,
    profile,
    variant: profile.server.variant,
    options: uploadOptions(profile.defaults),
  };
  await changeJobs((jobs) => {
    jobs[jobId] = newJobState(req);
  });
  await showBadge();
  try {
    await dispatch(req);
  } catch (err) {
    await onJobUpdate({
      ...newJobState(req),
      state: 'failed',
      error: t('jobStartFailed', String(err)),
    });
  }
  return jobId;
}

/**
 * The "upload the clipboard" shortcut: every file or image on the clipboard, or else its text, is
 * uploaded with the active profile. Without the permission, the options page explains and asks.
 */
export async function uploadClipboard(): Promise<void> {
  if (!(await clipboardAllowed())) {
    await browser.tabs.create({ url: `${browser.runtime.getURL('/options.html')}#shortcuts` });
    return;
  }
  let sources: UploadSource[];
  try {
    if (local) {
      const { readClipboardHere } = await import('../clipboard-read');
      sources = await readClipboardHere(document.body.appendChild(document.createElement('textarea')));
    } else {
      await ensureOffscreen();
      sources = await sendMessage('readClipboard');
    }
  } catch (err) {
    await notify('clipboard', t('clipboardReadFailed'), String(err));
    return;
  }
  if (sources.length === 0) {
    await notify('clipboard', t('clipboardNothing'), t('clipboardNothingDetail'));
    return;
  }
  for (const source of sources) await startJob(source);
}

export async function cancelJob(jobId: string): Promise<void> {
  if (local) (await local).abortJob(jobId);
  else await sendMessage('abortJob', jobId).catch(() => {});
}

async function showBadge(jobs?: Record<string, JobState>): Promise<void> {
  const all = Object.values(jobs ?? (await changeJobs(() => {})));
  const running = all.filter((j) => j.state === 'running');
  let text = '';
  if (running.length === 1) {
    const j = running[0]!;
    text = j.total ? `${Math.floor((j.done / j.total) * 100)}%` : '…';
  } else if (running.length > 1) text = String(running.length);
  await action?.setBadgeBackgroundColor?.({ color: '#2d4fd6' });
  await action?.setBadgeText({ text });
}

export async function onJobUpdate(state: JobState): Promise<void> {
  const jobs = await changeJobs((all) => {
    all[state.id] = state;
  });
  await showBadge(jobs);
  const name = displayName(state.name);
  if (state.state === 'done' && state.link) {
    const copied = await copyText(state.link);
    // Never the link itself: notification centres keep their texts, and they show on shared screens.
    await notify(
      `job-${state.id}`,
      t('notifyUploaded', name),
      [t(copied ? 'notifyOnHostCopied' : 'notifyOnHost', name, new URL(state.link).host), state.warning]
        .filter(Boolean)
        .join('\n'),
    );
  } else if (state.state === 'failed') {
    if (state.learnedSizeLimit !== undefined && state.profileId)
      await updateProfile(state.profileId, { sizeLimit: state.learnedSizeLimit });
    await notify(`job-${state.id}`, t('notifyFailed', name), state.error ?? t('uploadFailed'));
  }
}

async function notify(id: string, title: string, message: string): Promise<void> {
  await browser.notifications
    .create(id, { type: 'basic', iconUrl: browser.runtime.getURL('/icon/128.png'), title, message })
    .catch(() => {});
}
