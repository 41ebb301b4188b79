import { useEffect, useMemo, useState } from 'preact/hooks';
import { offerDownload } from '../../components/download';
import { type Notice, UploadRow } from '../../components/UploadRow';
import { exportHistory, HistoryImportError, readHistoryExport, type UploadEntry } from '../../lib/history';
import { plural, t } from '../../lib/i18n';
import { clearUploads, listUploads, mergeUploads } from '../../platform/storage/history';

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
      const added = await mergeUploads(await readHistoryExport(file));
      setNotice({ kind: 'ok', text: plural('imported', added) });
      reload();
    } catch (err) {
      setNotice({
        kind: 'error',
        text: err instanceof HistoryImportError ? err.message : t('importFailed'),
      });
    }
  }

  return (
    <main>
      <h1>{t('uploadsTitle')}</h1>
      <p class="lead">
        {t('uploadsLead')} · <a href="/upload.html">{t('navUpload')}</a>
      </p>
      <p role="status" aria-live="polite" class={notice?.kind === 'error' ? 'error' : 'ok'}>
        {notice?.text}
      </p>
      <section class="card" aria-label={t('searchAndTools')}>
        <div class="row">
          <div class="grow">
            <label for="search">{t('search')}</label>
            <input id="search" type="text" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
          </div>
          <div>
            <label for="sort">{t('sort')}</label>
            <select id="sort" value={sort} onChange={(e) => setSort(e.currentTarget.value as Sort)}>
              <option value="newest">{t('sortNewest')}</option>
              <option value="oldest">{t('sortOldest')}</option>
              <option value="name">{t('sortName')}</option>
              <option value="size">{t('sortLargest')}</option>
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
            {t('export')}
          </button>
          <label class="button secondary" for="import" style={{ margin: 0, fontWeight: 400 }}>
            {t('import')}
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
              {t('clearAll')}
            </button>
          ) : (
            <span class="row">
              <span>{t('confirmClear')}</span>
              <button
                id="clear-confirm"
                type="button"
                class="danger"
                autoFocus
                onClick={async () => {
                  await clearUploads();
                  setConfirmClear(false);
                  setNotice({ kind: 'ok', text: t('cleared') });
                  reload();
                }}
              >
                {t('yesClear')}
              </button>
              <button type="button" class="secondary" onClick={() => setConfirmClear(false)}>
                {t('keep')}
              </button>
            </span>
          )}
        </div>
        <p id="export-note" class="small muted">
          {t('exportHoldsKeys')}
        </p>
      </section>
      {entries === undefined ? (
        <p aria-busy="true">{t('loading')}</p>
      ) : shown.length === 0 ? (
        <p class="muted">{t(entries.length === 0 ? 'noUploads' : 'noMatch')}</p>
      ) : (
        <table>
          <caption class="sr-only">{t('uploads')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('file')}</th>
              <th scope="col">{t('actions')}</th>
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
