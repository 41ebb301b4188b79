import { useEffect, useState } from 'preact/hooks';
import { offerDownload } from '../../components/download';
import { formatBytes } from '../../components/format';
import { LinkError, parseLink, sha256Hex } from '../../lib/crypto';
import { HASHED_UP_TO, type UploadEntry } from '../../lib/history';
import { fileNameFromUrl } from '../../lib/history/file-names';
import { listUploads } from '../../platform/history';
import { fetchAndDecrypt, OpenLinkError, previewable, safeBlobType } from '../../platform/open-link';

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

export function App() {
  const [text, setText] = useState(() => decodeURIComponent(location.hash.slice(1)));
  const [state, setState] = useState<'idle' | 'working' | 'done' | 'failed'>('idle');
  const [progress, setProgress] = useState<{ done: number; total?: number }>();
  const [error, setError] = useState('');
  const [opened, setOpened] = useState<Opened>();
  const [preview, setPreview] = useState<string>();

  async function open(e?: Event) {
    e?.preventDefault();
    setError('');
    setPreview(undefined);
    await opened?.cleanup();
    setOpened(undefined);
    let link: ReturnType<typeof parseLink>;
    try {
      link = parseLink(text);
    } catch (err) {
      setState('failed');
      setError(err instanceof LinkError ? err.message : 'This link cannot be read.');
      return;
    }
    setState('working');
    try {
      const sameUrl = (await listUploads()).find((u) => u.url === link.url);
      const otherKey = Boolean(sameUrl?.key && sameUrl.key !== link.key);
      const known = otherKey ? undefined : sameUrl;
      const { file, contentType, cleanup } = await fetchAndDecrypt(link, {
        iv: known?.mode !== 'client' ? known?.iv : undefined,
        onProgress: setProgress,
      });
      const type = known?.type ?? contentType;
      let check: Opened['check'] = 'unknown';
      if (known?.sha256 && file.size <= HASHED_UP_TO)
        check = (await sha256Hex(file)) === known.sha256 ? 'matches' : 'differs';
      setOpened({
        file,
        name: known?.name ?? fileNameFromUrl(link.url, contentType),
        type,
        known,
        check,
        otherKey,
        cleanup,
      });
      if (previewable(type)) setPreview(URL.createObjectURL(new Blob([file], { type })));
      setState('done');
    } catch (err) {
      setState('failed');
      setError(err instanceof OpenLinkError ? err.message : `The file could not be opened: ${String(err)}`);
    }
  }

  useEffect(() => {
    if (text) open();
  }, []);

  const pct = progress?.total ? Math.floor((progress.done / progress.total) * 100) : undefined;
  return (
    <main>
      <h1>Open an encrypted link</h1>
      <p class="lead">
        Hushdrop downloads the file, decrypts it here with the key after “#”, and saves it. The key is never
        sent.
      </p>
      <form class="card" onSubmit={open}>
        <label for="link">Link</label>
        <div class="row">
          <input
            id="link"
            class="grow mono"
            type="text"
            value={text}
            placeholder="https://files.example.org/AbCdE.png#key"
            onInput={(e) => setText(e.currentTarget.value)}
          />
          <button id="open" type="submit" disabled={state === 'working'}>
            Open
          </button>
        </div>
      </form>
      <section aria-live="polite">
        {state === 'working' && (
          <div class="card">
            <label for="progress">
              Downloading and decrypting… {progress ? formatBytes(progress.done) : ''}
              {pct !== undefined ? ` (${pct}%)` : ''}
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
              Decrypted {opened.name} ({formatBytes(opened.file.size)}).
            </p>
            {opened.check === 'matches' && (
              <p class="ok" id="check">
                Checked: it is exactly the file you uploaded.
              </p>
            )}
            {opened.check === 'differs' && (
              <p class="error" id="check" role="alert">
                This is not the file you uploaded: the download differs from it. The server may have changed
                or damaged it.
              </p>
            )}
            {opened.otherKey && (
              <p class="warn" role="alert">
                This key is not the one Hushdrop made when you uploaded this file, so the result is probably
                unreadable.
              </p>
            )}
            {!opened.known && (
              <p class="small muted">
                This format has no checksum: with a wrong key the result is unreadable rather than an error.
                If the saved file does not open, check that the whole link was copied.
              </p>
            )}
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
              Save file
            </button>
            {preview && (
              <figure>
                <img src={preview} alt={`Preview of ${opened.name}`} style={{ maxWidth: '100%' }} />
              </figure>
            )}
          </div>
        )}
      </section>
    </main>
  );
}
