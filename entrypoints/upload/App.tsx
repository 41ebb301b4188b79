import { useEffect, useRef, useState } from 'preact/hooks';
import { CopyField } from '../../components/CopyField';
import { DropZone, usePastedFiles } from '../../components/FileDrop';
import { FileName } from '../../components/FileName';
import { JobProgress } from '../../components/JobProgress';
import { LinkQr } from '../../components/LinkQr';
import { type UploadChoices, UploadOptionsForm } from '../../components/UploadOptionsForm';
import { displayName } from '../../lib/history/file-names';
import { formatBytes, t } from '../../lib/i18n';
import type { JobState } from '../../lib/jobs/model';
import { activeProfile, type Settings, uploadOptions } from '../../lib/settings';
import { limitText } from '../../lib/upload/limit';
import { watchJobs } from '../../platform/storage/jobs';
import { loadSettings, watchSettings } from '../../platform/storage/settings';
import { cancelOnPage, runOnPage } from '../../platform/upload/page-jobs';

function JobView({ job, onRetry }: { job: JobState; onRetry: () => void }) {
  return (
    <article class="card job" data-state={job.state}>
      <h3 style={{ margin: '0 0 6px', fontSize: '1rem' }}>
        <FileName name={job.name} /> <span class="muted small">({formatBytes(job.total)})</span>
      </h3>
      {job.state === 'running' && (
        <div>
          <JobProgress job={job} />
          <p>
            <button type="button" class="secondary" onClick={() => cancelOnPage(job.id)}>
              {t('cancel')}
            </button>
          </p>
        </div>
      )}
      {job.state === 'done' && job.link && (
        <div>
          <p class="ok">
            {[
              t('uploaded'),
              job.copied ? t('linkCopied') : '',
              job.mode === 'client' ? t('keyOnlyInLink') : '',
            ]
              .filter(Boolean)
              .join(' ')}
          </p>
          {job.warning && (
            <p class="warn" role="alert">
              {job.warning}
            </p>
          )}
          <CopyField id={`link-${job.id}`} label={t('link')} value={job.link} />
          <LinkQr link={job.link} name={displayName(job.name)} />
          {job.deletionLink && (
            <CopyField id={`del-${job.id}`} label={t('deletionLink')} value={job.deletionLink} />
          )}
        </div>
      )}
      {(job.state === 'failed' || job.state === 'cancelled') && job.error && (
        <div role="alert">
          <p class="error">{job.error}</p>
          {job.errorDetail && <p class="small">{t('serverSaid', job.errorDetail)}</p>}
          <button type="button" class="secondary retry" onClick={onRetry}>
            {t('tryAgain')}
          </button>
        </div>
      )}
    </article>
  );
}

// The files picked here run here (platform/upload/page-jobs.ts), and show in the popup and the
// badge as well; what the background adds (the copied link) comes from the job store.
export function App() {
  const [settings, setSettings] = useState<Settings>();
  const [profileId, setProfileId] = useState<string>();
  const [choices, setChoices] = useState<UploadChoices>();
  const [jobs, setJobs] = useState<JobState[]>([]);
  const [copied, setCopied] = useState<Record<string, boolean>>({});
  /** Kept so a failed upload can be tried again without choosing the file again. */
  const files = useRef(new Map<string, File>());
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    loadSettings().then((s) => {
      const p = activeProfile(s);
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

  const show = (state: JobState) =>
    setJobs((js) =>
      js.some((j) => j.id === state.id) ? js.map((j) => (j.id === state.id ? state : j)) : [state, ...js],
    );

  async function start(picked: File[]) {
    if (!profile || !choices) return;
    for (const file of picked) {
      const jobId = crypto.randomUUID();
      files.current.set(jobId, file);
      await runOnPage(
        {
          jobId,
          source: { kind: 'held', file },
          profile,
          variant: choices.variant,
          options: uploadOptions(choices),
        },
        show,
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
      <section class="card" aria-labelledby="pick">
        <h2 id="pick">{t('file')}</h2>
        <DropZone label={t('filesToUpload')} onFiles={(picked) => start(picked)}>
          <p>{t('dropPasteOrChoose')}</p>
          <label for="file" class="sr-only">
            {t('filesToUpload')}
          </label>
          <input id="file" ref={input} type="file" multiple />
          <p>
            <button
              id="upload"
              type="button"
              onClick={() => {
                start([...(input.current?.files ?? [])]);
                if (input.current) input.current.value = '';
              }}
            >
              {t('upload')}
            </button>
          </p>
        </DropZone>
      </section>
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
        <UploadOptionsForm value={choices} onChange={setChoices} showDoNotTrack={false} />
      </section>
      <section aria-labelledby="uploads" aria-live="polite">
        <h2 id="uploads" class={jobs.length ? '' : 'sr-only'}>
          {t('uploads')}
        </h2>
        {jobs.map((job) => (
          <JobView key={job.id} job={{ ...job, copied: copied[job.id] }} onRetry={() => retry(job)} />
        ))}
      </section>
    </main>
  );
}
