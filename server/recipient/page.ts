// The recipient page: a small HTML shell, the same for every browser and every link preview. It
// describes its file in a non-executable JSON block (read by its own script and by Hushdrop's
// viewer) and loads its script from /_hushdrop/. Addresses in it are relative to the page, so it
// works behind a proxy that mounts the server under another path or host.

import type { MessageKey } from '../../lib/i18n';
import { RECIPIENT_DATA_ID, type RecipientFile } from '../../lib/upload/download-page';
import { type Language, say } from './language';
import type { RecipientUpload } from './upload';

export const OWN_DIR = '_hushdrop/';

/** From the page's path to the server's root, e.g. `/u/abc.png` → `../`, `/abc.png` → `./`. */
export function toRoot(pathname: string): string {
  const depth = pathname.split('/').length - 2;
  return depth > 0 ? '../'.repeat(depth) : './';
}

/** JSON that cannot end its <script> element or open a comment there. */
function embeddedJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function describeFile(upload: RecipientUpload, root: string): RecipientFile {
  return {
    file: upload.fileName,
    name: upload.originalName || upload.fileName,
    type: upload.contentType,
    size: upload.contentLength,
    iv: upload.iv ?? '',
    ...(upload.linkFormat ? { format: upload.linkFormat } : {}),
    bytes: `${root}${OWN_DIR}file/${encodeURIComponent(upload.fileName)}`,
  };
}

/**
 * The HTML both pages share: its head, its style and one script of its own; `head` gives more of the
 * head, from the page's own folder and the server's root (both relative to `pathname`, escaped).
 */
function shell(
  language: Language,
  pathname: string,
  parts: {
    title: MessageKey;
    heading: MessageKey;
    noScript: MessageKey;
    head: (own: string, root: string) => string;
  },
): Buffer {
  const root = toRoot(pathname);
  const own = escapeHtml(root + OWN_DIR);
  return Buffer.from(
    `<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(say(language, parts.title))}</title>
<link rel="icon" href="${own}icon.png">
<link rel="stylesheet" href="${own}recipient.css">
${parts.head(own, root)}
</head>
<body>
<main id="app">
<h1>${escapeHtml(say(language, parts.heading))}</h1>
<noscript><p>${escapeHtml(say(language, parts.noScript))}</p></noscript>
</main>
</body>
</html>
`,
    'utf8',
  );
}

export function renderPage(upload: RecipientUpload, pathname: string, language: Language): Buffer {
  return shell(language, pathname, {
    title: 'recipientTitle',
    heading: 'recipientHeading',
    noScript: 'recipientNoScript',
    head: (own, root) =>
      `<script type="application/json" id="${RECIPIENT_DATA_ID}">${embeddedJson(describeFile(upload, root))}</script>\n` +
      `<script src="${own}recipient.js" data-worker="${own}sw.js" data-scope="${own}" data-home="${escapeHtml(root)}" defer></script>`,
  });
}

/** The server's home page (`GET /`): an upload page; its script asks `_hushdrop/info` what the server takes. */
export function renderHome(pathname: string, language: Language): Buffer {
  return shell(language, pathname, {
    title: 'homeTitle',
    heading: 'homeHeading',
    noScript: 'homeNoScript',
    head: (own) => `<script src="${own}home.js" data-info="${own}info" defer></script>`,
  });
}
