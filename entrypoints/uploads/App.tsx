import { useEffect, useMemo, useState } from 'preact/hooks';
import { offerDownload } from '../../components/download';
import { type Notice, UploadRow } from '../../components/UploadRow';
import { exportHistory, HistoryImportError, readHistoryExport, type UploadEntry } from '../../lib/history';
import { HISTORY_PAGE_SIZE, HistoryIndex, type HistorySort, visibleRows } from '../../lib/history/search';
import { plural, t } from '../../lib/i18n';
import {
  clearUploads,
  countUploads,
  listUploads,
  mergeUploads,
  recentUploads,
} from '../../platform/storage/history';

export function App() {
  const [entries, setEntries] = useState<UploadEntry[]>();
  // The newest page and the count, read first: the list shows before the whole history is read and indexed.
  const [first, setFirst] = useState<{ rows: UploadEntry[]; total: number }>();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<HistorySort>('newest');
  // How many pages of matches are rendered; a new search or order starts again at one.
  const [pages, setPages] = useState(1);
  const [notice, setNotice] = useState<Notice>();
  const [confirmClear, setConfirmClear] = useState(false);

  const reload = () => listUploads().then(setEntries);
  useEffect(() => {
    Promise.all([recentUploads(HISTORY_PAGE_SIZE), countUploads()])
      .then(([rows, total]) => setFirst({ rows, total }))
      .then(reload);
  }, []);

  // Built once per load of the history; searches and sorts then reuse its lowercased texts and orders.
  const index = useMemo(() => entries && new HistoryIndex(entries), [entries]);
  const matches = useMemo(() => {
    if (index) return index.search(query, sort);
    // Until the index is there, the first page stands for the newest, unfiltered list.
    return first && !query.trim() && sort === 'newest' ? first.rows : undefined;
  }, [index, first, query, sort]);
  const matchCount = index ? (matches?.length ?? 0) : (first?.total ?? 0);
  const shown = visibleRows(matches ?? [], pages);

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
            <input
              id="search"
              type="text"
              value={query}
              onInput={(e) => {
                setQuery(e.currentTarget.value);
                setPages(1);
              }}
            />
          </div>
          <div>
            <label for="sort">{t('sort')}</label>
            <select
              id="sort"
              value={sort}
              onChange={(e) => {
                setSort(e.currentTarget.value as HistorySort);
                setPages(1);
              }}
            >
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
            disabled={entries === undefined}
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
      {matches === undefined ? (
        <p aria-busy="true">{t('loading')}</p>
      ) : shown.length === 0 ? (
        <p class="muted">{t((entries?.length ?? first?.total) === 0 ? 'noUploads' : 'noMatch')}</p>
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
      {shown.length < matchCount && (
        <p class="row">
          <span id="shown-count" class="muted">
            {plural('shownOfMatches', matchCount, shown.length)}
          </span>
          <button
            id="show-more"
            type="button"
            class="secondary"
            aria-describedby="shown-count"
            onClick={() => setPages(pages + 1)}
          >
            {t('showMore', Math.min(HISTORY_PAGE_SIZE, matchCount - shown.length))}
          </button>
        </p>
      )}
    </main>
  );
}
