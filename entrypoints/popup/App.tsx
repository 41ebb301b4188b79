import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { DropZone, usePastedFiles } from '../../components/FileDrop';
import { FileName } from '../../components/FileName';
import { type Notice, UploadRow } from '../../components/UploadRow';
import type { UploadEntry } from '../../lib/history';
import { displayName } from '../../lib/history/file-names';
import { formatBytes, formatNumber, t } from '../../lib/i18n';
import type { Settings } from '../../lib/settings';
import { listUploads } from '../../platform/history';
import { jobsItem } from '../../platform/jobs/state';
import { type JobState, sendMessage } from '../../platform/messages';
import { loadSettings, saveSettings } from '../../platform/settings';
import { stageFile } from '../../platform/staging';

const RECENT = 5;

function openPage(path: '/upload.html' | '/uploads.html' | '/options.html' | '/viewer.html') {
  browser.tabs.create({ url: browser.runtime.getURL(path) });
  window.close();
}

function JobItem({ job }: { job: JobState }) {
  const pct = job.total ? Math.floor((job.done / job.total) * 100) : 0;
  return (
    <li class="card job" data-state={job.state}>
      <strong>
        <FileName name={job.name} />
      </strong>{' '}
      {job.total ? <span class="small muted">({formatBytes(job.total)})</span> : null}
      {job.state === 'running' && (
        <div>
          <label for={`job-${job.id}`} class="small">
            {t(
              job.phase === 'encrypting'
                ? 'encryptingPercent'
                : job.phase === 'uploading'
                  ? 'uploadingPercent'
                  : 'preparingPercent',
              formatNumber(pct / 100, { style: 'percent' }),
            )}
          </label>
          <progress id={`job-${job.id}`} max={100} value={pct} />
          <button type="button" class="secondary" onClick={() => sendMessage('cancelJob', job.id)}>
            {t('cancel')}
          </button>
        </div>
      )}
      {job.state === 'done' && job.link && (
        <div>
          <p class="ok small">{t('uploadedLinkCopied')}</p>
          {/* autocomplete=off: the browser's session restore must not keep the key shown here. */}
          <input
            class="mono job-link"
            type="text"
            readOnly
            autocomplete="off"
            value={job.link}
            aria-label={t('linkOf', displayName(job.name))}
          />
        </div>
      )}
      {(job.state === 'failed' || job.state === 'cancelled') && (
        <p class="error small" role="alert">
          {job.error}
        </p>
      )}
    </li>
  );
}

export function App() {
  const [settings, setSettings] = useState<Settings>();
  const [jobs, setJobs] = useState<JobState[]>([]);
  const [recent, setRecent] = useState<UploadEntry[]>([]);
  const [notice, setNotice] = useState<Notice>();

  const reloadRecent = () => listUploads().then((all) => setRecent(all.slice(0, RECENT)));
  useEffect(() => {
    loadSettings().then(setSettings);
    reloadRecent();
    const show = (all: Record<string, JobState> | null) =>
      setJobs(Object.values(all ?? {}).sort((a, b) => b.startedAt - a.startedAt));
    jobsItem.getValue().then(show);
    return jobsItem.watch((all) => {
      show(all);
      reloadRecent();
    });
  }, []);

  async function upload(files: File[]) {
    for (const file of files) {
      try {
        const id = await stageFile(file);
        await sendMessage('startUpload', {
          source: {
            kind: 'staged',
            id,
            name: file.name || t('pastedFile'),
            type: file.type,
            size: file.size,
          },
        });
      } catch (err) {
        setNotice({
          kind: 'error',
          text: t('handOverFailed', file.name || t('pastedFile'), String(err)),
        });
      }
    }
  }

  usePastedFiles((files) => upload(files));

  return (
    <main class="popup">
      <header class="row" style={{ justifyContent: 'space-between' }}>
        <h1 style={{ fontSize: '1.15rem' }}>{t('extName')}</h1>
        {settings && settings.profiles.length > 1 && (
          <div>
            <label for="profile" class="sr-only">
              {t('serverForUploads')}
            </label>
            <select
              id="profile"
              value={settings.activeProfileId}
              onChange={async (e) => {
                const next = { ...settings, activeProfileId: e.currentTarget.value };
                setSettings(next);
                await saveSettings(next);
              }}
            >
              {settings.profiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </header>
      <DropZone label={t('filesToUpload')} onFiles={(files) => upload(files)}>
        <p style={{ margin: '0 0 8px' }}>{t('dropOrPaste')}</p>
        <button id="choose" type="button" onClick={() => openPage('/upload.html')}>
          {t('chooseFiles')}
        </button>
      </DropZone>
      <p role="status" aria-live="polite" class={notice?.kind === 'error' ? 'error small' : 'ok small'}>
        {notice?.text}
      </p>
      {jobs.length > 0 && (
        <section aria-labelledby="jobs-h">
          <h2 id="jobs-h">{t('uploads')}</h2>
          <ul class="plain" aria-live="polite">
            {jobs.map((j) => (
              <JobItem key={j.id} job={j} />
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">{t('lastUploads')}</h2>
        {recent.length === 0 ? (
          <p class="muted small">{t('noUploads')}</p>
        ) : (
          <table class="compact">
            <caption class="sr-only">{t('lastUploads')}</caption>
            <tbody>
              {recent.map((e) => (
                <UploadRow key={e.id} entry={e} onChanged={reloadRecent} notify={setNotice} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <nav class="row small" aria-label={t('pages')}>
        <button type="button" class="secondary" onClick={() => openPage('/uploads.html')}>
          {t('uploadsList')}
        </button>
        <button type="button" class="secondary" onClick={() => openPage('/viewer.html')}>
          {t('openALink')}
        </button>
        <button type="button" class="secondary" onClick={() => openPage('/options.html')}>
          {t('settings')}
        </button>
      </nav>
    </main>
  );
}
