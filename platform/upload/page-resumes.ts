// The upload page's side of resuming after a reload: the uploads an earlier life of this tab left
// interrupted (../storage/resumes.ts keeps them), what a job needs to keep its own, and Forget, which
// aborts the interrupted session at its server.
import { browser } from 'wxt/browser';
import { type Profile, uploadOptions, uploadTarget } from '../../lib/settings';
import { abortInParts } from '../../lib/upload/parts-runner';
import { xhrExchange } from '../../lib/upload/transport';
import { forgetResume, type KeptResume, keepResume, resumesOfTab } from '../storage/resumes';
import type { Resumable } from './upload-file';

/** This page's tab; undefined where it is not in a tab (then nothing resumes). */
const thisTab: Promise<number | undefined> = browser.tabs
  .getCurrent()
  .then((tab) => tab?.id)
  .catch(() => undefined);

/** The uploads a reload of this tab broke off, sent with a profile that still exists; the others are forgotten. */
export async function interruptedHere(profiles: readonly Profile[]): Promise<KeptResume[]> {
  const tabId = await thisTab;
  if (tabId === undefined) return [];
  const kept = await resumesOfTab(tabId);
  const known = (r: KeptResume) => profiles.some((p) => p.id === r.profileId);
  await Promise.all(kept.filter((r) => !known(r)).map((r) => forgetResume(r.session.id)));
  return kept.filter(known);
}

/** What the job of `file`, sent with `profileId`, keeps to resume; `from` is the upload it resumes. */
export function resumableOnPage(
  file: File,
  profileId: string,
  from: KeptResume | undefined,
  onGone: () => void,
): Resumable {
  return {
    from,
    async keep(fields) {
      const tabId = await thisTab;
      if (tabId !== undefined) await keepResume(file, fields, { profileId, tabId });
    },
    forget: forgetResume,
    onGone,
  };
}

/** Forget: the record goes, and the session is aborted at its server, best-effort (its sweeper ends it otherwise). */
export async function forgetInterrupted(record: KeptResume, profile: Profile): Promise<void> {
  await forgetResume(record.session.id);
  const { cipher } = record;
  await abortInParts<Blob>(
    {
      target: uploadTarget(profile.server, record.variant),
      options: { ...uploadOptions(profile.defaults), mode: 'client', format: cipher.format },
      file: { name: record.file.name, type: 'application/octet-stream' },
      iv: cipher.format === 'teknik' ? cipher.iv : undefined,
      exchange: (req, options) => xhrExchange(XMLHttpRequest, req, options),
    },
    record.session,
  );
}
