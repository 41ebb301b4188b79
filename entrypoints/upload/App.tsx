import { useEffect, useRef, useState } from 'preact/hooks';
import { CopyField } from '../../components/CopyField';
import { DropZone, usePastedFiles } from '../../components/FileDrop';
import { FileName } from '../../components/FileName';
import { LinkQr } from '../../components/LinkQr';
import { type UploadChoices, UploadOptionsForm } from '../../components/UploadOptionsForm';
import type { UploadEntry } from '../../lib/history';
import { displayName } from '../../lib/history/file-names';
import { formatBytes, formatNumber, t } from '../../lib/i18n';
import {
  activeProfile,
  type Settings,
  silenceMs,
  sizeProblem,
  uploadOptions,
  uploadTarget,
} from '../../lib/settings';
import { limitText } from '../../lib/upload/limit';
import { describeError, sizeRefusal } from '../../platform/describe-error';
import { loadSettings, updateProfile } from '../../platform/settings';
import { runUpload, type UploadProgress } from '../../platform/upload-job';

interface Job {
  id: string;
  name: string;
  size: number;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  progress?: UploadProgress;
  entry?: UploadEntry;
  warning?: string;
  copied?: boolean;
  error?: { message: string; detail?: string };
  abort: AbortController;
  /** Kept so a failed upload can be tried again without choosing the file again. */
  file: File;
}

function percent(p?: UploadProgress) {
  return p && p.total > 0 ? Math.floor((p.done / p.total) * 100) : 0;
}

export function App() {
  const [settings, setSettings] = useState<Settings>();
  const [profileId, setProfileId] = useState<string>();
  const [choices, setChoices] = useState<UploadChoices>();
  const [jobs, setJobs] = useState<Job[]>([]);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    loadSettings().then((s) => {
      const p = activeProfile(s);
      setSettings(s);
      setProfileId(p.id);
      setChoices({ ...p.defaults, variant: p.server.variant });
    });
  }, []);

  const update = (id: string, patch: Partial<Job>) =>
    setJobs((js) => js.map((j) => (j.id === id ? { ...j, ...patch } : j)));

  const profile = settings?.profiles.find((p) => p.id === profileId);

  function chooseProfile(id: string) {
    const p = settings?.profiles.find((x) => x.id === id);
    if (!p) return;
    setProfileId(id);
    setChoices({ ...p.defaults, variant: p.server.variant });
  }

  async function start(files: File[]) {
    if (!profile || !choices || files.length === 0) return;
    for (const file of files) {
      const job: Job = {
        id: crypto.randomUUID(),
        name: file.name || t('pastedFile'),
        size: file.size,
        state: 'running',
        abort: new AbortController(),
        file,
      };
      const tooBig = sizeProblem(profile, file.size);
      if (tooBig) {
        setJobs((js) => [{ ...job, state: 'failed', error: { message: tooBig } }, ...js]);
        continue;
      }
      setJobs((js) => [job, ...js]);
      try {
        const { entry, historyError } = await runUpload(
          file,
          uploadTarget(profile.server, choices.variant),
          uploadOptions(choices),
          {
            onProgress: (progress) => update(job.id, { progress }),
            signal: job.abort.signal,
            timeoutMs: silenceMs(profile),
          },
        );
        const copied = await navigator.clipboard.writeText(entry.link).then(
          () => true,
          () => false,
        );
        update(job.id, { state: 'done', entry, copied, warning: historyError?.message });
      } catch (err) {
        const aborted = job.abort.signal.aborted;
        const refusal = sizeRefusal(err, profile, file.size);
        if (refusal) {
          await updateProfile(profile.id, { sizeLimit: refusal.limit });
          setSettings(await loadSettings());
        }
        update(job.id, { state: aborted ? 'cancelled' : 'failed', error: refusal ?? describeError(err) });
      }
    }
  }

  usePastedFiles((files) => start(files));

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
        <DropZone label={t('filesToUpload')} onFiles={(files) => start(files)}>
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
          <article class="card job" key={job.id} data-state={job.state}>
            <h3 style={{ margin: '0 0 6px', fontSize: '1rem' }}>
              <FileName name={job.name} /> <span class="muted small">({formatBytes(job.size)})</span>
            </h3>
            {job.state === 'running' && (
              <div>
                <label for={`p-${job.id}`}>
                  {t(
                    job.progress?.phase === 'encrypting' ? 'encryptingPercent' : 'uploadingPercent',
                    formatNumber(percent(job.progress) / 100, { style: 'percent' }),
                  )}
                </label>
                <progress id={`p-${job.id}`} max={100} value={percent(job.progress)} />
                <p>
                  <button type="button" class="secondary" onClick={() => job.abort.abort()}>
                    {t('cancel')}
                  </button>
                </p>
              </div>
            )}
            {job.state === 'done' && job.entry && (
              <div>
                <p class="ok">
                  {[
                    t('uploaded'),
                    job.copied ? t('linkCopied') : '',
                    job.entry.mode === 'client' ? t('keyOnlyInLink') : '',
                  ]
                    .filter(Boolean)
                    .join(' ')}
                </p>
                {job.warning && (
                  <p class="warn" role="alert">
                    {job.warning}
                  </p>
                )}
                <CopyField id={`link-${job.id}`} label={t('link')} value={job.entry.link} />
                <LinkQr link={job.entry.link} name={displayName(job.name)} />
                {job.entry.deletionLink && (
                  <CopyField id={`del-${job.id}`} label={t('deletionLink')} value={job.entry.deletionLink} />
                )}
              </div>
            )}
            {(job.state === 'failed' || job.state === 'cancelled') && job.error && (
              <div role="alert">
                <p class="error">{job.error.message}</p>
                {job.error.detail && <p class="small">{t('serverSaid', job.error.detail)}</p>}
                <button
                  type="button"
                  class="secondary retry"
                  onClick={() => {
                    setJobs((js) => js.filter((j) => j.id !== job.id));
                    start([job.file]);
                  }}
                >
                  {t('tryAgain')}
                </button>
              </div>
            )}
          </article>
        ))}
      </section>
    </main>
  );
}
