import { useEffect, useRef, useState } from 'preact/hooks';
import { offerDownload } from '../../components/download';
import { FileName } from '../../components/FileName';
import { Message } from '../../components/Message';
import { deriveIv, LinkError, parseLink, sha256Hex } from '../../lib/crypto';
import { HASHED_UP_TO, openingOf, type UploadEntry } from '../../lib/history';
import { displayName, fileNameFromUrl } from '../../lib/history/file-names';
import { formatBytes, formatNumber, t } from '../../lib/i18n';
import { profileServing, silenceMs } from '../../lib/settings';
import { throttle } from '../../lib/throttle';
import { OpenLinkError, type OpenTarget, previewable, safeBlobType } from '../../lib/upload/open';
import { getUpload, listUploads } from '../../platform/storage/history';
import { sweepScratch } from '../../platform/storage/scratch-files';
import { loadSettings } from '../../platform/storage/settings';
import { openToDisk } from '../../platform/upload/open-link';

interface Opened {
  file: File;
  name: string;
  type: string;
  known?: UploadEntry;
  /** Against the SHA-256 recorded at upload time, when there is one. */
  check: 'matches' | 'differs' | 'unknown';
  /** The link's key is not the one Hushdrop made for this upload. */
  otherKey: boolean;
  cleanup: () => Promise<void>;
}

/** What to fetch for an upload in the history: decrypt only what needs it (the record says). */
function targetOf(entry: UploadEntry): OpenTarget {
  const decrypt = openingOf(entry) === 'decrypt' && entry.key;
  return {
    url: entry.url,
    cipher: decrypt
      ? { key: entry.key!, iv: (entry.mode === 'client' ? undefined : entry.iv) ?? deriveIv(entry.key!) }
      : undefined,
    knownSize: entry.size,
  };
}

// Links reach this page only typed or pasted into its field, or as the id of an upload in the
// history (`?entry=`): never in its address, which the browser keeps in its History and syncs.
export function App() {
  const [text, setText] = useState('');
  const [state, setState] = useState<'idle' | 'working' | 'done' | 'failed'>('idle');
  const [progress, setProgress] = useState<{ done: number; total?: number }>();
  const [error, setError] = useState('');
  const [opened, setOpened] = useState<Opened>();
  const [preview, setPreview] = useState<string>();
  const [from, setFrom] = useState<UploadEntry>();
  const current = useRef<Opened | undefined>(undefined);

  async function show(target: OpenTarget, known: UploadEntry | undefined, otherKey: boolean) {
    setError('');
    if (preview) URL.revokeObjectURL(preview);
    setPreview(undefined);
    await current.current?.cleanup();
    current.current = undefined;
    setOpened(undefined);
    setState('working');
    try {
      // The silence limit set for the server the file is on, if it is one of the profiles'.
      const profile = profileServing(await loadSettings(), target.url);
      const { file, contentType, cleanup } = await openToDisk(target, {
        onProgress: throttle(setProgress),
        silenceMs: profile && silenceMs(profile),
      });
      const type = known?.type ?? contentType;
      let check: Opened['check'] = 'unknown';
      if (known?.sha256 && file.size <= HASHED_UP_TO)
        check = (await sha256Hex(file)) === known.sha256 ? 'matches' : 'differs';
      const result: Opened = {
        file,
        name: displayName(known?.name ?? fileNameFromUrl(target.url, contentType)),
        type,
        known,
        check,
        otherKey,
        cleanup,
      };
      current.current = result;
      setOpened(result);
      if (previewable(type)) setPreview(URL.createObjectURL(new Blob([file], { type })));
      setState('done');
    } catch (err) {
      setState('failed');
      setError(err instanceof OpenLinkError ? err.message : t('viewerFailed', String(err)));
    }
  }

  async function openTyped(e: Event) {
    e.preventDefault();
    setFrom(undefined);
    let link: ReturnType<typeof parseLink>;
    try {
      link = parseLink(text);
    } catch (err) {
      setState('failed');
      setError(err instanceof LinkError ? err.message : t('linkUnreadable'));
      return;
    }
    const sameUrl = (await listUploads()).find((u) => u.url === link.url);
    const otherKey = Boolean(sameUrl?.key && sameUrl.key !== link.key);
    const known = otherKey ? undefined : sameUrl;
    const target: OpenTarget = known
      ? targetOf(known)
      : { url: link.url, cipher: { key: link.key, iv: deriveIv(link.key) } };
    await show(target, known, otherKey);
  }

  useEffect(() => {
    // Decrypted copies left by viewer tabs that closed before they could remove theirs.
    sweepScratch(['open']).catch(() => {});
    // An old bookmark may still carry a link after "#": it is not used, and not kept in the address.
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    const id = new URLSearchParams(location.search).get('entry');
    if (id)
      getUpload(id).then((entry) => {
        if (!entry) {
          setState('failed');
          setError(t('viewerEntryGone'));
          return;
        }
        setFrom(entry);
        show(targetOf(entry), entry, false);
      });
    // The decrypted copy is plaintext: remove it when the tab goes (the background sweeps as well).
    const leave = () => void current.current?.cleanup();
    addEventListener('pagehide', leave);
    return () => removeEventListener('pagehide', leave);
  }, []);

  const pct = progress?.total ? Math.floor((progress.done / progress.total) * 100) : undefined;
  return (
    <main>
      <h1>{t('viewerTitle')}</h1>
      <p class="lead">{t('viewerLead')}</p>
      <form class="card" onSubmit={openTyped}>
        <label for="link">{t('link')}</label>
        <div class="row">
          {/* autocomplete=off: the browser's session restore must not keep a key typed here. */}
          <input
            id="link"
            class="grow mono"
            type="text"
            autocomplete="off"
            spellcheck={false}
            value={text}
            placeholder={t('viewerPlaceholder')}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          <button id="open" type="submit" disabled={state === 'working'}>
            {t('open')}
          </button>
        </div>
        {from && (
          <p class="small muted" id="from">
            <Message id="viewerOpeningFrom" args={[<FileName name={from.name} />]} />
          </p>
        )}
      </form>
      <section aria-live="polite">
        {state === 'working' && (
          <div class="card">
            <label for="progress">
              {t(from && openingOf(from) === 'direct' ? 'downloading' : 'downloadingDecrypting')}{' '}
              {progress ? formatBytes(progress.done) : ''}
              {pct !== undefined ? ` (${formatNumber(pct / 100, { style: 'percent' })})` : ''}
            </label>
            <progress id="progress" max={100} value={pct} />
          </div>
        )}
        {state === 'failed' && (
          <p class="error card" role="alert">
            {error}
          </p>
        )}
        {state === 'done' && opened && (
          <div class="card" id="result">
            <p class="ok">
              <Message
                id="viewerReady"
                args={[<FileName name={opened.name} />, formatBytes(opened.file.size)]}
              />
            </p>
            {opened.check === 'matches' && (
              <p class="ok" id="check">
                {t('viewerChecked')}
              </p>
            )}
            {opened.check === 'differs' && (
              <p class="error" id="check" role="alert">
                {t('viewerDiffers')}
              </p>
            )}
            {opened.otherKey && (
              <p class="warn" role="alert">
                {t('viewerOtherKey')}
              </p>
            )}
            {!opened.known && <p class="small muted">{t('viewerNoChecksum')}</p>}
            <button
              id="save"
              type="button"
              onClick={() =>
                offerDownload(
                  new File([opened.file], opened.name, { type: safeBlobType(opened.type) }),
                  opened.name,
                )
              }
            >
              {t('saveFile')}
            </button>
            {preview && (
              <figure>
                <img src={preview} alt={t('previewOf', opened.name)} style={{ maxWidth: '100%' }} />
              </figure>
            )}
          </div>
        )}
      </section>
    </main>
  );
}
