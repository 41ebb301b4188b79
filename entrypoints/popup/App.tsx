import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { DropZone, usePastedFiles } from '../../components/FileDrop';
import { FileName } from '../../components/FileName';
import { formatBytes } from '../../components/format';
import { type Notice, UploadRow } from '../../components/UploadRow';
import type { UploadEntry } from '../../lib/history';
import { displayName } from '../../lib/history/file-names';
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
            {job.phase === 'encrypting'
              ? 'Encrypting'
              : job.phase === 'uploading'
                ? 'Uploading'
                : 'Preparing'}
            … {pct}%
          </label>
          <progress id={`job-${job.id}`} max={100} value={pct} />
          <button type="button" class="secondary" onClick={() => sendMessage('cancelJob', job.id)}>
            Cancel
          </button>
        </div>
      )}
      {job.state === 'done' && job.link && (
        <div>
          <p class="ok small">Uploaded; the link was copied.</p>
          {/* autocomplete=off: the browser's session restore must not keep the key shown here. */}
          <input
            class="mono job-link"
            type="text"
            readOnly
            autocomplete="off"
            value={job.link}
            aria-label={`Link of ${displayName(job.name)}`}
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
          source: { kind: 'staged', id, name: file.name || 'pasted file', type: file.type, size: file.size },
        });
      } catch (err) {
        setNotice({
          kind: 'error',
          text: `${file.name || 'The file'} could not be handed over for upload: ${String(err)}`,
        });
      }
    }
  }

  usePastedFiles((files) => upload(files));

  return (
    <main class="popup">
      <header class="row" style={{ justifyContent: 'space-between' }}>
        <h1 style={{ fontSize: '1.15rem' }}>Hushdrop</h1>
        {settings && settings.profiles.length > 1 && (
          <div>
            <label for="profile" class="sr-only">
              Server for uploads
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
      <DropZone label="Files to upload" onFiles={(files) => upload(files)}>
        <p style={{ margin: '0 0 8px' }}>Drop or paste files here</p>
        <button id="choose" type="button" onClick={() => openPage('/upload.html')}>
          Choose files…
        </button>
      </DropZone>
      <p role="status" aria-live="polite" class={notice?.kind === 'error' ? 'error small' : 'ok small'}>
        {notice?.text}
      </p>
      {jobs.length > 0 && (
        <section aria-labelledby="jobs-h">
          <h2 id="jobs-h">Uploads</h2>
          <ul class="plain" aria-live="polite">
            {jobs.map((j) => (
              <JobItem key={j.id} job={j} />
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">Last uploads</h2>
        {recent.length === 0 ? (
          <p class="muted small">Nothing uploaded yet.</p>
        ) : (
          <table class="compact">
            <caption class="sr-only">Last uploads</caption>
            <tbody>
              {recent.map((e) => (
                <UploadRow key={e.id} entry={e} onChanged={reloadRecent} notify={setNotice} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <nav class="row small" aria-label="Hushdrop pages">
        <button type="button" class="secondary" onClick={() => openPage('/uploads.html')}>
          History
        </button>
        <button type="button" class="secondary" onClick={() => openPage('/viewer.html')}>
          Open a link
        </button>
        <button type="button" class="secondary" onClick={() => openPage('/options.html')}>
          Settings
        </button>
      </nav>
    </main>
  );
}
