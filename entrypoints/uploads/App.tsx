import { useEffect, useMemo, useState } from 'preact/hooks';
import { offerDownload } from '../../components/download';
import { type Notice, UploadRow } from '../../components/UploadRow';
import { exportHistory, HistoryImportError, parseHistoryExport, type UploadEntry } from '../../lib/history';
import { clearUploads, listUploads, mergeUploads } from '../../platform/history';

type Sort = 'newest' | 'oldest' | 'name' | 'size';

function sorted(entries: UploadEntry[], sort: Sort) {
  const list = [...entries];
  if (sort === 'oldest') list.sort((a, b) => a.time - b.time);
  else if (sort === 'name') list.sort((a, b) => a.name.localeCompare(b.name));
  else if (sort === 'size') list.sort((a, b) => b.size - a.size);
  else list.sort((a, b) => b.time - a.time);
  return list;
}

export function App() {
  const [entries, setEntries] = useState<UploadEntry[]>();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<Sort>('newest');
  const [notice, setNotice] = useState<Notice>();
  const [confirmClear, setConfirmClear] = useState(false);

  const reload = () => listUploads().then(setEntries);
  useEffect(() => {
    reload();
  }, []);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = (entries ?? []).filter(
      (e) => !q || e.name.toLowerCase().includes(q) || e.link.toLowerCase().includes(q) || e.type.includes(q),
    );
    return sorted(list, sort);
  }, [entries, query, sort]);

  async function importFile(file: File | undefined) {
    if (!file) return;
    try {
      const added = await mergeUploads(parseHistoryExport(await file.text()));
      setNotice({ kind: 'ok', text: `Imported ${added} upload${added === 1 ? '' : 's'}.` });
      reload();
    } catch (err) {
      setNotice({
        kind: 'error',
        text:
          err instanceof HistoryImportError ? err.message : 'The import failed; your history is unchanged.',
      });
    }
  }

  return (
    <main>
      <h1>Upload history</h1>
      <p class="lead">
        Kept only in this browser, with the keys of your encrypted uploads. ·{' '}
        <a href="/upload.html">Upload</a>
      </p>
      <p role="status" aria-live="polite" class={notice?.kind === 'error' ? 'error' : 'ok'}>
        {notice?.text}
      </p>
      <section class="card" aria-label="Search and tools">
        <div class="row">
          <div class="grow">
            <label for="search">Search</label>
            <input id="search" type="text" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
          </div>
          <div>
            <label for="sort">Sort</label>
            <select id="sort" value={sort} onChange={(e) => setSort(e.currentTarget.value as Sort)}>
              <option value="newest">Newest first</option>
              <option value="oldest">Oldest first</option>
              <option value="name">Name</option>
              <option value="size">Largest first</option>
            </select>
          </div>
        </div>
        <div class="row" style={{ marginTop: '12px' }}>
          <button
            id="export"
            type="button"
            class="secondary"
            aria-describedby="export-note"
            onClick={() =>
              offerDownload(
                new Blob([exportHistory(entries ?? [])], { type: 'application/json' }),
                'hushdrop-history.json',
              )
            }
          >
            Export
          </button>
          <label class="button secondary" for="import" style={{ margin: 0, fontWeight: 400 }}>
            Import…
          </label>
          <input
            id="import"
            class="sr-only"
            type="file"
            accept="application/json,.json"
            onChange={(e) => {
              importFile(e.currentTarget.files?.[0]);
              e.currentTarget.value = '';
            }}
          />
          {!confirmClear ? (
            <button id="clear" type="button" class="danger" onClick={() => setConfirmClear(true)}>
              Clear all
            </button>
          ) : (
            <span class="row">
              <span>Remove every upload from this history? The files stay on their servers.</span>
              <button
                id="clear-confirm"
                type="button"
                class="danger"
                autoFocus
                onClick={async () => {
                  await clearUploads();
                  setConfirmClear(false);
                  setNotice({ kind: 'ok', text: 'History cleared.' });
                  reload();
                }}
              >
                Yes, clear
              </button>
              <button type="button" class="secondary" onClick={() => setConfirmClear(false)}>
                Keep
              </button>
            </span>
          )}
        </div>
        <p id="export-note" class="small muted">
          The export holds every link with its key: whoever has the file can open your encrypted uploads. Keep
          it as safe as the files themselves.
        </p>
      </section>
      {entries === undefined ? (
        <p aria-busy="true">Loading…</p>
      ) : shown.length === 0 ? (
        <p class="muted">{entries.length === 0 ? 'No uploads yet.' : 'Nothing matches the search.'}</p>
      ) : (
        <table>
          <caption class="sr-only">Uploads</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => (
              <UploadRow key={e.id} entry={e} onChanged={reload} notify={setNotice} />
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
