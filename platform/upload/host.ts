// The background's side of upload jobs, whoever started them: it starts the jobs that must outlive
// every page where the browser adapter runs them, takes every job's reports into the job store
// (the popup, the upload page and the badge read it), and tells the person how each one ended:
// the link copied and a notification, the size limit a 413 taught.
import { browser } from 'wxt/browser';
import { displayName } from '../../lib/history/file-names';
import { t } from '../../lib/i18n';
import { jobErrorText } from '../../lib/jobs/errors';
import {
  type JobOwner,
  type JobRequest,
  type JobState,
  newJobState,
  type UploadSource,
} from '../../lib/jobs/model';
import { acceptReport, endJobsOfTab, type Jobs, jobsBadge } from '../../lib/jobs/store';
import { activeProfile, uploadOptions } from '../../lib/settings';
import { vapi } from '../browser';
import { sendMessage } from '../messaging/send';
import { clipboardAllowed } from '../shortcuts';
import { changeJobs, jobsItem } from '../storage/jobs';
import { loadSettings, updateProfile } from '../storage/settings';

const BACKGROUND: JobOwner = { kind: 'background' };

/** Starts an upload where it can outlive every page; resolves with its id once it was handed over. */
export async function startJob(source: UploadSource, profileId?: string): Promise<string> {
  const settings = await loadSettings();
  const profile = settings.profiles.find((p) => p.id === profileId) ?? activeProfile(settings);
  const req: JobRequest = {
    jobId: crypto.randomUUID(),
    source,
    profile,
    variant: profile.server.variant,
    options: uploadOptions(profile.defaults),
  };
  const { jobs } = await changeJobs((all) => {
    all[req.jobId] = { ...newJobState(req), owner: BACKGROUND };
  });
  await showBadge(jobs);
  try {
    await vapi.runJob(req, (state) => void onJobUpdate(state, BACKGROUND));
  } catch (err) {
    await onJobUpdate(
      { ...newJobState(req), state: 'failed', error: t('jobStartFailed', String(err)) },
      BACKGROUND,
    );
  }
  return req.jobId;
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
    sources = await vapi.readClipboard();
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

/** Cancel, from the popup: stops the job where it runs. */
export async function cancelJob(jobId: string): Promise<void> {
  const job = (await jobsItem.getValue())[jobId];
  if (job?.state !== 'running') return;
  // An upload page listens for the jobs it runs.
  if (job.owner?.kind === 'page') await sendMessage('abortJob', jobId).catch(() => {});
  else await vapi.abortJob(jobId);
}

/** A report of a job's state from whoever runs it; anything else is dropped (lib/jobs/store.ts). */
export async function onJobUpdate(report: JobState, from: JobOwner): Promise<void> {
  const { jobs, result: job } = await changeJobs((all) => {
    const taken = acceptReport(all, report, from);
    if (taken) all[taken.id] = taken;
    return taken;
  });
  if (!job) return;
  await showBadge(jobs);
  if (job.state === 'done' && job.link) await tellDone(job, job.link);
  else if (job.state === 'failed') {
    if (job.learnedSizeLimit !== undefined && job.profileId)
      await updateProfile(job.profileId, { sizeLimit: job.learnedSizeLimit });
    await notify(`job-${job.id}`, t('notifyFailed', displayName(job.name)), jobErrorText(job));
  }
}

/** A tab closed or went to another address: the jobs its upload page ran are gone with it. */
export async function onTabGone(tabId: number): Promise<void> {
  // Most tabs never ran a job: their every navigation must cost no more than this read.
  if (endJobsOfTab(await jobsItem.getValue(), tabId, '').length === 0) return;
  const { jobs, result: ended } = await changeJobs((all) => {
    const gone = endJobsOfTab(all, tabId, t('jobPageClosed'));
    for (const job of gone) all[job.id] = job;
    return gone.length;
  });
  if (ended) await showBadge(jobs);
}

async function tellDone(job: JobState, link: string): Promise<void> {
  const copied = await vapi.copyText(link);
  await changeJobs((all) => {
    if (all[job.id]) all[job.id] = { ...all[job.id]!, copied };
  });
  const name = displayName(job.name);
  // Never the link itself: notification centres keep their texts, and they show on shared screens.
  await notify(
    `job-${job.id}`,
    t('notifyUploaded', name),
    [t(copied ? 'notifyOnHostCopied' : 'notifyOnHost', name, new URL(link).host), job.warning]
      .filter(Boolean)
      .join('\n'),
  );
}

async function showBadge(jobs: Jobs): Promise<void> {
  await vapi.toolbarButton.setBadgeBackgroundColor({ color: '#2d4fd6' });
  await vapi.toolbarButton.setBadgeText({ text: jobsBadge(jobs) });
}

async function notify(id: string, title: string, message: string): Promise<void> {
  await browser.notifications
    .create(id, { type: 'basic', iconUrl: browser.runtime.getURL('/icon/128.png'), title, message })
    .catch(() => {});
}
