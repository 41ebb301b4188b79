// The server's home page: an upload page anyone can use, without the extension. It asks the server's
// `_hushdrop/info` what it takes (read as untrusted, as the extension reads it), then sends each file
// chosen, dropped or pasted through lib/upload/page-upload.ts: encrypted here with a key of its own,
// in parts read from the file as they are sent. The key is only ever in the link it shows, and, while
// an upload in parts is under way, in this tab's session storage, to resume it after a reload
// (home-resume.ts).

import { sealedSize } from '../../../lib/crypto/file-cipher';
import { formatBytes, t } from '../../../lib/i18n';
import { deleteAfterChoices } from '../../../lib/settings/delete-after';
import { brokenOffByLeaving } from '../../../lib/upload/page-leaving';
import {
  forgetFromPage,
  type PagePart,
  type PageTarget,
  type PageUploadArgs,
  pageTarget,
} from '../../../lib/upload/page-upload';
import type { PartsExchange } from '../../../lib/upload/parts-runner';
import { readServerInfo } from '../../../lib/upload/server-info';
import { readServerKind } from '../../../lib/upload/server-kind';
import { xhrExchange, xhrTransport } from '../../../lib/upload/transport';
import { keepAccount, keptAccount } from './account';
import { sendFile } from './home-file';
import { interruptedUploads, pageLeaving } from './home-resume';
import { connectPageMessages } from './language';
import { sweepPartFiles, withPartFile } from './part-files';
import { el, problem, show } from './view';
import { workerParts } from './worker-parts';

document.documentElement.lang = connectPageMessages(navigator.languages ?? [navigator.language]);
document.title = t('homeTitle');

/**
 * The requests of an upload, with XMLHttpRequest: it reports the progress of a body being sent. A part
 * is sent from a file of its own (part-files.ts says why).
 */
const sent: PartsExchange<PagePart> = (req, options) => {
  const { body } = req;
  if (!(body instanceof Uint8Array)) return xhrExchange(XMLHttpRequest, { ...req, body }, options);
  return withPartFile(body, (file) => xhrExchange(XMLHttpRequest, { ...req, body: file }, options));
};

/** The parts worker, served beside this script (parts-worker.ts): it makes the parts off this thread. */
const PARTS_WORKER = new URL(
  'parts-worker.js',
  document.querySelector<HTMLScriptElement>('script[data-info]')?.src ?? location.href,
).href;
const openParts: PageUploadArgs['openParts'] = (file, cipher, session, stop, streamed) =>
  workerParts(PARTS_WORKER, file, cipher, session, stop, streamed);

/** A reload must not end an upload (lib/upload/page-leaving.ts): it resumes after the reload. */
const exchange = brokenOffByLeaving(sent, pageLeaving);
const transport = xhrTransport(XMLHttpRequest);
/** The longest wait with no progress at all on one request. */
const TIMEOUT_MS = 120_000;

const heading = () => el('h1', {}, t('homeHeading'));
const note = (text: string) => el('p', { className: 'note' }, text);

/** A labelled text field. */
function textField(id: string, label: string, type: 'text' | 'password', value = ''): HTMLElement {
  const input = el('input', { id, name: id, type });
  input.value = value;
  input.autocomplete = type === 'password' ? 'current-password' : 'username';
  return el('p', { className: 'field' }, el('label', { for: id }, label), input);
}

function accountFields(): HTMLElement {
  const { account, remembered } = keptAccount();
  const remember = el('input', { id: 'remember', type: 'checkbox' });
  remember.checked = remembered;
  return el(
    'fieldset',
    { id: 'account' },
    el('legend', {}, t('homeAccountLegend')),
    textField('account-name', t('homeAccountName'), 'text', account?.username),
    textField('account-token', t('homeAccountToken'), 'password', account?.token),
    el('p', { className: 'check' }, remember, el('label', { for: 'remember' }, t('homeRemember'))),
  );
}

const fieldValue = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value ?? '';

function deleteAfterField(to: PageTarget): HTMLElement | undefined {
  const choices = deleteAfterChoices(to.expiry);
  if (choices.length < 2) return undefined;
  const select = el('select', { id: 'delete-after', name: 'delete-after' });
  for (const choice of choices) {
    const option = el('option', {}, t(choice.label));
    option.value = choice.value;
    select.append(option);
  }
  return el('p', { className: 'field' }, el('label', { for: 'delete-after' }, t('deleteAfter')), select);
}

function ready(to: PageTarget, takesParts: boolean, maxUploadBytes: number | undefined): void {
  const input = el('input', { id: 'files', type: 'file', name: 'files' });
  input.multiple = true;
  const list = el('ul', { id: 'uploads' });
  const accountProblem = el('div', { role: 'alert' });
  const interrupted = el('ul', { id: 'interrupted' });
  const typedAccount = () => ({
    username: fieldValue('account-name').trim(),
    token: fieldValue('account-token').trim(),
  });
  const resumable = interruptedUploads(interrupted, to.variant, (record) => {
    const credentials = to.needsAccount ? typedAccount() : undefined;
    void forgetFromPage({ to, credentials, takesParts, exchange, transport }, record);
  });
  show(
    heading(),
    note(t('homeLead')),
    ...(to.needsAccount ? [accountFields()] : []),
    ...[deleteAfterField(to)].filter((f) => f !== undefined),
    el('p', { className: 'field' }, el('label', { for: 'files' }, t('homeChoose')), input),
    note(t('homeDropOrPaste')),
    accountProblem,
    interrupted,
    list,
    note(t('homeExtension')),
  );

  let queue = Promise.resolve();
  let count = 0;
  const send = (files: Iterable<File>) => {
    let credentials: { username: string; token: string } | undefined;
    if (to.needsAccount) {
      credentials = typedAccount();
      if (!credentials.username || !credentials.token) {
        accountProblem.replaceChildren(problem(t('homeAccountMissing')));
        return;
      }
      accountProblem.replaceChildren();
      keepAccount(credentials, (document.getElementById('remember') as HTMLInputElement).checked);
    }
    const choice = deleteAfterChoices(to.expiry).find((c) => c.value === fieldValue('delete-after'));
    const expiry =
      choice && choice.unit !== 'never' ? { unit: choice.unit, length: choice.length } : undefined;
    for (const file of files) {
      const n = ++count;
      const size = sealedSize({ format: 'ece' }, file.size);
      const tooLarge =
        maxUploadBytes !== undefined && size > maxUploadBytes
          ? t('homeTooLarge', formatBytes(file.size), formatBytes(maxUploadBytes))
          : undefined;
      queue = queue.then(async () =>
        sendFile(
          list,
          n,
          file,
          { to, credentials, expiry, takesParts, exchange, transport, openParts, timeoutMs: TIMEOUT_MS },
          tooLarge,
          // A file that cannot be read is no match; sending it says why.
          tooLarge ? {} : await resumable.match(file).catch(() => ({})),
        ),
      );
    }
  };

  input.addEventListener('change', () => {
    if (input.files?.length) send([...input.files]);
    input.value = '';
  });
  document.addEventListener('dragover', (event) => event.preventDefault());
  document.addEventListener('drop', (event) => {
    event.preventDefault();
    if (event.dataTransfer?.files.length) send([...event.dataTransfer.files]);
  });
  document.addEventListener('paste', (event) => {
    // Text pasted into a field stays text; files pasted anywhere are sent.
    if (event.clipboardData?.files.length) {
      event.preventDefault();
      send([...event.clipboardData.files]);
    }
  });
}

async function start(): Promise<void> {
  if (!window.isSecureContext || !crypto.subtle) {
    show(heading(), problem(t('homeInsecure')));
    return;
  }
  const script = document.querySelector<HTMLScriptElement>('script[data-info]')!;
  let json: unknown;
  try {
    const res = await fetch(new URL(script.dataset.info!, location.href), {
      credentials: 'omit',
      cache: 'no-store',
    });
    json = res.ok ? await res.json() : undefined;
  } catch {
    json = undefined;
  }
  const info = json === undefined ? undefined : readServerInfo(json, location.href);
  if (!info) {
    show(heading(), problem(t('homeInfoFailed')));
    return;
  }
  const to = pageTarget(info);
  if (!to) {
    show(heading(), problem(t('homeNoUploads')));
    return;
  }
  ready(to, readServerKind(json).parts, info.maxUploadBytes);
  void sweepPartFiles();
}

void start();
