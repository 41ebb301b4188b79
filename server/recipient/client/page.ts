// The recipient page: reads what the server says about the file (a JSON block, no inline script),
// takes the key from the address's fragment, and on a click fetches the stored bytes, decrypts them
// in this browser and hands the file to the browser's download. Nothing it sends holds the key.
import { formatBytes, t } from '../../../lib/i18n';
import { asRecipientFile, RECIPIENT_DATA_ID, type RecipientFile } from '../../../lib/upload/download-page';
import { chooseDecoder, LinkError, LinkIntegrityError } from './decoders';
import { connectPageMessages } from './language';
import { saveName } from './names';
import { NoWorker, type SaveRequest, type SaveResult, saveInMemory, saveThroughWorker } from './save';
import { el, problem, show } from './view';

document.documentElement.lang = connectPageMessages(navigator.languages ?? [navigator.language]);
document.title = t('recipientTitle');

function readFile(): RecipientFile | undefined {
  try {
    return asRecipientFile(JSON.parse(document.getElementById(RECIPIENT_DATA_ID)?.textContent ?? ''));
  } catch {
    return undefined;
  }
}

function heading(): HTMLElement {
  return el('h1', {}, t('recipientHeading'));
}

/** The file's name and size; `size` is the file's own (the stored bytes of the authenticated format are more). */
function facts(file: RecipientFile, size = file.size): HTMLElement {
  return el(
    'dl',
    {},
    el('dt', {}, t('recipientFileLabel')),
    el('dd', { className: 'name' }, saveName(file.name)),
    el('dt', {}, t('recipientSizeLabel')),
    el('dd', {}, formatBytes(size)),
  );
}

/** A sentence for a download that did not end well. */
function failure(result: Exclude<SaveResult, { ok: true }>, size: number): string {
  switch (result.reason) {
    case 'gone':
      return t('recipientGone');
    case 'unreachable':
      return t('recipientUnreachable');
    case 'cut':
      return t('recipientCut', formatBytes(result.done ?? 0), formatBytes(size));
    case 'stopped':
      return t('recipientStopped', formatBytes(result.done ?? 0), formatBytes(size));
    case 'link':
      return result.message ?? t('linkNoKey');
    case 'changed':
      return new LinkIntegrityError(result.problem ?? 'changed').message;
    default:
      return t('recipientHttp', String(result.status ?? 0));
  }
}

async function download(file: RecipientFile, size: number, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  const bar = el('progress', {});
  bar.max = Math.max(size, 1);
  bar.value = 0;
  const status = el('p', { role: 'status' }, t('recipientPreparing'));
  button.after(bar, status);
  const request: SaveRequest = {
    href: location.href,
    file,
    bytes: new URL(file.bytes, location.href).href,
    onProgress(done) {
      bar.value = done;
      status.textContent = t('recipientProgress', formatBytes(done), formatBytes(size));
    },
  };
  const script = document.querySelector<HTMLScriptElement>('script[data-worker]')!;
  let result: SaveResult;
  try {
    result = await saveThroughWorker(request, {
      script: new URL(script.dataset.worker!, location.href).href,
      scope: new URL(script.dataset.scope!, location.href).href,
    });
  } catch (err) {
    if (!(err instanceof NoWorker)) throw err;
    status.textContent = t('recipientInMemory');
    result = await saveInMemory(request);
  }
  if (result.ok) {
    bar.value = bar.max;
    status.textContent = t('recipientDone', saveName(file.name));
    status.className = 'done';
  } else {
    bar.remove();
    status.replaceWith(problem(failure(result, size)));
  }
}

/** Runs a download; an error nobody foresaw still ends in a sentence rather than a page that waits. */
function downloadOrSay(file: RecipientFile, size: number, button: HTMLButtonElement): void {
  download(file, size, button).catch((err: unknown) => {
    for (const busy of document.querySelectorAll('progress, [role="status"]')) busy.remove();
    button.after(problem(t('recipientBroken', String((err as Error)?.message ?? err))));
  });
}

function start(): void {
  const file = readFile();
  if (!file) {
    show(heading(), problem(t('recipientNoFile')));
    return;
  }
  let size: number;
  try {
    size = chooseDecoder(location.href, { iv: file.iv, size: file.size }).plainSize;
  } catch (err) {
    if (err instanceof LinkIntegrityError) {
      show(heading(), facts(file), problem(err.message));
      return;
    }
    if (!(err instanceof LinkError)) throw err;
    const ask = err.problem === 'no-key' || err.problem === 'empty-key' ? [t('recipientAskSender')] : [];
    show(heading(), facts(file), problem(err.message, ...ask));
    return;
  }
  if (!window.isSecureContext || !crypto.subtle) {
    show(heading(), facts(file), problem(t('recipientInsecure')));
    return;
  }
  const button = el('button', { type: 'button', id: 'download' }, t('recipientDownload'));
  button.addEventListener('click', () => downloadOrSay(file, size, button));
  show(heading(), facts(file, size), el('p', { className: 'note' }, t('recipientExplain')), button);
}

/** A way to the server's home page, to send a file in return (it needs no extension either). */
function sendBack(): HTMLElement {
  const home = document.querySelector<HTMLScriptElement>('script[data-home]')?.dataset.home ?? './';
  return el(
    'p',
    { className: 'send-back' },
    el('a', { href: home, id: 'send-back' }, t('recipientSendBack')),
  );
}

start();
document.getElementById('app')!.append(sendBack());
