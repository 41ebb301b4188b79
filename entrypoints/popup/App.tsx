import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ErrorWayOut } from '../../components/ErrorWayOut';
import { DropZone, usePastedFiles } from '../../components/FileDrop';
import { FileName } from '../../components/FileName';
import { JobProgress } from '../../components/JobProgress';
import { RecentUploadRow } from '../../components/RecentUploadRow';
import type { Notice } from '../../components/UploadRow';
import type { UploadEntry } from '../../lib/history';
import { displayName } from '../../lib/history/file-names';
import { formatBytes, t } from '../../lib/i18n';
import { jobErrorText } from '../../lib/jobs/errors';
import { type JobState, jobsInView } from '../../lib/jobs/model';
import { needsSetup, type Settings } from '../../lib/settings';
import { sendMessage } from '../../platform/messaging/send';
import { recentUploads } from '../../platform/storage/history';
import { watchJobs } from '../../platform/storage/jobs';
import { loadSettings, saveSettings } from '../../platform/storage/settings';
import { stageFile } from '../../platform/upload/staging';

// The popup's height must not grow with the history or the session (browsers cut popups at 600 px).
const RECENT = 3;
const ENDED_JOBS = 3;

type Page =
  | '/upload.html'
  | '/uploads.html'
  | '/options.html'
  | '/viewer.html'
  | '/payment.html'
  | '/welcome.html';

function openPage(path: Page) {
  browser.tabs.create({ url: browser.runtime.getURL(path) });
  window.close();
}

/** A link to one of the extension's pages, opened in a new tab (the popup then closes). */
function PageLink({ id, path, text }: { id: string; path: Page; text: string }) {
  return (
    <a
      id={id}
      href={browser.runtime.getURL(path)}
      onClick={(e) => {
        e.preventDefault();
        openPage(path);
      }}
    >
      {text}
    </a>
  );
}

function JobItem({ job }: { job: JobState }) {
  return (
    <li class="card job" data-state={job.state}>
      <strong>
        <FileName name={job.name} />
      </strong>{' '}
      {job.total ? <span class="small muted">({formatBytes(job.total)})</span> : null}
      {job.state === 'running' && (
        <div>
          <JobProgress job={job} small />
          <button type="button" class="secondary" onClick={() => sendMessage('cancelJob', job.id)}>
            {t('cancel')}
          </button>
        </div>
      )}
      {job.state === 'done' && job.link && (
        <div>
          <p class="ok small">{t(job.copied ? 'uploadedLinkCopied' : 'uploaded')}</p>
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
        <div role="alert">
          <p class="error small">{jobErrorText(job)}</p>
          {job.errorWayOut && <ErrorWayOut wayOut={job.errorWayOut} afterOpening={() => window.close()} />}
        </div>
      )}
    </li>
  );
}

export function App() {
  const [settings, setSettings] = useState<Settings>();
  const [jobs, setJobs] = useState<JobState[]>([]);
  const [recent, setRecent] = useState<UploadEntry[]>([]);
  const [notice, setNotice] = useState<Notice>();

  const reloadRecent = () => recentUploads(RECENT).then(setRecent);
  useEffect(() => {
    loadSettings().then(setSettings);
    reloadRecent();
    return watchJobs((all) => {
      setJobs(all);
      reloadRecent();
    });
  }, []);

  // Until a server has passed a test, files stay here: an upload could only fail.
  const settingUp = settings !== undefined && needsSetup(settings);

  async function upload(files: File[]) {
    // A paste can come before the settings have loaded; it waits for them rather than being lost.
    if (needsSetup(settings ?? (await loadSettings()))) {
      setNotice({ kind: 'error', text: t('setupFirst') });
      return;
    }
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
      {settingUp ? (
        <section id="setup" class="card" aria-labelledby="setup-h">
          <h2 id="setup-h">{t('setupFirst')}</h2>
          <p class="small">{t('setupFirstText')}</p>
          <button id="set-up" type="button" onClick={() => openPage('/welcome.html')}>
            {t('setupButton')}
          </button>
        </section>
      ) : (
        settings && (
          <DropZone label={t('filesToUpload')} onFiles={(files) => upload(files)}>
            <p>{t('dropOrPaste')}</p>
            <button id="choose" type="button" onClick={() => openPage('/upload.html')}>
              {t('chooseFiles')}
            </button>
          </DropZone>
        )
      )}
      <p role="status" aria-live="polite" class={notice?.kind === 'error' ? 'error small' : 'ok small'}>
        {notice?.text}
      </p>
      {jobs.length > 0 && (
        <section aria-labelledby="jobs-h">
          <h2 id="jobs-h">{t('uploads')}</h2>
          <ul class="plain" aria-live="polite">
            {jobsInView(jobs, ENDED_JOBS).map((j) => (
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
                <RecentUploadRow key={e.id} entry={e} notify={setNotice} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <nav class="row small" aria-label={t('pages')}>
        <PageLink id="all-uploads" path="/uploads.html" text={t('allUploads')} />
        <PageLink id="payment-requests" path="/payment.html" text={t('paymentRequests')} />
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
