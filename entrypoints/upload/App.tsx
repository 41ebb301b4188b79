import { useEffect, useRef, useState } from 'preact/hooks';
import { DropZone, usePastedFiles } from '../../components/FileDrop';
import { FilePicker } from '../../components/FilePicker';
import { type UploadChoices, UploadOptionsForm } from '../../components/UploadOptionsForm';
import { t } from '../../lib/i18n';
import type { JobState } from '../../lib/jobs/model';
import { activeProfile, type Settings, uploadOptions } from '../../lib/settings';
import { limitText } from '../../lib/upload/limit';
import { findResumed } from '../../lib/upload/resume-record';
import { watchJobs } from '../../platform/storage/jobs';
import type { KeptResume } from '../../platform/storage/resumes';
import { loadSettings, watchSettings } from '../../platform/storage/settings';
import { runOnPage } from '../../platform/upload/page-jobs';
import { forgetInterrupted, interruptedHere, resumableOnPage } from '../../platform/upload/page-resumes';
import { Interrupted } from './Interrupted';
import { JobView } from './JobView';

// The files picked here run here (platform/upload/page-jobs.ts), and show in the popup and the
// badge as well; what the background adds (the copied link) comes from the job store. One step:
// the options come first, and choosing, dropping or pasting a file starts its upload.
export function App() {
  const [settings, setSettings] = useState<Settings>();
  const [profileId, setProfileId] = useState<string>();
  const [choices, setChoices] = useState<UploadChoices>();
  const [jobs, setJobs] = useState<JobState[]>([]);
  const [copied, setCopied] = useState<Record<string, boolean>>({});
  /** What a job's card says of resuming: resumed, or why not. */
  const [notes, setNotes] = useState<Record<string, string>>({});
  /** Uploads a reload of this tab broke off: offered until the same file resumes one, or Forget. */
  const [interrupted, setInterrupted] = useState<KeptResume[]>([]);
  const stillInterrupted = useRef<KeptResume[]>([]);
  /** Kept so a failed upload can be tried again without choosing the file again. */
  const files = useRef(new Map<string, File>());
  const early = useRef<File[]>([]);

  useEffect(() => {
    loadSettings().then(async (s) => {
      const p = activeProfile(s);
      stillInterrupted.current = await interruptedHere(s.profiles);
      setInterrupted(stillInterrupted.current);
      setSettings(s);
      setProfileId(p.id);
      setChoices({ ...p.defaults, variant: p.server.variant });
    });
    // A size limit learned from a refusal shows at once, and holds back the next file over it.
    const stopSettings = watchSettings(setSettings);
    const stopJobs = watchJobs((all) =>
      setCopied(Object.fromEntries(all.filter((j) => j.copied !== undefined).map((j) => [j.id, j.copied!]))),
    );
    return () => {
      stopSettings();
      stopJobs();
    };
  }, []);

  const profile = settings?.profiles.find((p) => p.id === profileId);

  function chooseProfile(id: string) {
    const p = settings?.profiles.find((x) => x.id === id);
    if (!p) return;
    setProfileId(id);
    setChoices({ ...p.defaults, variant: p.server.variant });
  }

  /** The interrupted upload `record` is no longer offered (resumed, or forgotten). */
  function take(record: KeptResume) {
    stillInterrupted.current = stillInterrupted.current.filter((r) => r !== record);
    setInterrupted(stillInterrupted.current);
  }
  const note = (jobId: string, text: string) => setNotes((n) => ({ ...n, [jobId]: text }));

  function forget(record: KeptResume) {
    take(record);
    const p = settings?.profiles.find((x) => x.id === record.profileId);
    if (p) forgetInterrupted(record, p).catch(() => {});
  }

  const show = (state: JobState) =>
    setJobs((js) =>
      js.some((j) => j.id === state.id) ? js.map((j) => (j.id === state.id ? state : j)) : [state, ...js],
    );

  async function start(picked: File[]) {
    if (!profile || !choices) {
      // Pasted while the page still loads: kept, and started once the settings are here.
      early.current.push(...picked);
      return;
    }
    for (const file of picked) {
      const jobId = crypto.randomUUID();
      files.current.set(jobId, file);
      // The same file as an upload a reload broke off resumes it, with the profile it was sent with.
      // A file that cannot be read is no match; its upload says why.
      const { record, notSame } = await findResumed(stillInterrupted.current, file).catch(() => ({
        record: undefined,
        notSame: false,
      }));
      const resumed = record && settings?.profiles.find((p) => p.id === record.profileId);
      if (record) take(record);
      if (resumed) note(jobId, t('resuming'));
      else if (notSame) note(jobId, t('resumeNotSame'));
      const sendWith = resumed ?? profile;
      await runOnPage(
        {
          jobId,
          source: { kind: 'held', file },
          profile: sendWith,
          variant: resumed ? record!.variant : choices.variant,
          options: resumed
            ? { ...uploadOptions(choices), mode: 'client', format: record!.cipher.format }
            : uploadOptions(choices),
        },
        show,
        resumableOnPage(file, sendWith.id, resumed && record, () => note(jobId, t('resumeGone'))),
      );
    }
  }

  function retry(job: JobState) {
    const file = files.current.get(job.id);
    files.current.delete(job.id);
    setJobs((js) => js.filter((j) => j.id !== job.id));
    if (file) start([file]);
  }

  usePastedFiles((picked) => start(picked));
  useEffect(() => {
    if (profile && choices && early.current.length) start(early.current.splice(0));
  }, [profile, choices]);

  if (!settings || !profile || !choices) return <main aria-busy="true">{t('loading')}</main>;

  return (
    <main>
      <h1>{t('uploadTitle')}</h1>
      <p class="lead">
        {t('uploadTo')}{' '}
        <span class="mono">
          {choices.variant === 'legacy' ? profile.server.baseUrl : profile.server.apiUrl}
        </span>
        {profile.sizeLimit ? ` (${limitText(profile.sizeLimit)})` : ''} ·{' '}
        <a href="/options.html">{t('navSettings')}</a> · <a href="/uploads.html">{t('navUploads')}</a>
      </p>
      <section class="card" aria-labelledby="opts">
        <h2 id="opts">{t('options')}</h2>
        {settings.profiles.length > 1 && (
          <>
            <label for="profile">{t('server')}</label>
            <select id="profile" value={profile.id} onChange={(e) => chooseProfile(e.currentTarget.value)}>
              {settings.profiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </>
        )}
        <UploadOptionsForm
          value={choices}
          onChange={setChoices}
          showDoNotTrack={false}
          expiryUnits={profile.expiryUnits}
        />
      </section>
      <Interrupted uploads={interrupted} onForget={forget} />
      <section class="card" aria-labelledby="pick">
        <h2 id="pick">{t('file')}</h2>
        <DropZone label={t('filesToUpload')} onFiles={(picked) => start(picked)}>
          <FilePicker id="file" onFiles={(picked) => start(picked)} />
          <p class="small">{t('pickerHint')}</p>
        </DropZone>
      </section>
      <section aria-labelledby="uploads" aria-live="polite">
        <h2 id="uploads" class={jobs.length ? '' : 'sr-only'}>
          {t('uploads')}
        </h2>
        {jobs.map((job) => (
          <JobView
            key={job.id}
            job={{ ...job, copied: copied[job.id] }}
            note={notes[job.id]}
            onRetry={() => retry(job)}
          />
        ))}
      </section>
    </main>
  );
}
