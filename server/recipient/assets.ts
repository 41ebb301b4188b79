// The page's script, its service worker and its style, built from the project's own code
// (lib/crypto, lib/i18n) with esbuild when the server first needs them and kept in memory: nothing
// built is committed or written to disk, and a server always serves what its sources say.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { build, type Plugin } from 'esbuild';

export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const here = (path: string) => new URL(path, import.meta.url).pathname;

/** Only the messages the page can show go into its script (both languages), not the extension's. */
const PAGE_MESSAGES =
  /^(recipient[A-Z]|link(NotWeb|EmptyKey|KeyCharacters|KeyLength|NoKey|SecretShape|FormatUnknown)$|integrity[A-Z]|bytes_)/;

const messagesPlugin: Plugin = {
  name: 'recipient-messages',
  setup(b) {
    b.onLoad({ filter: /_locales[\\/][a-z_A-Z]+[\\/]messages\.json$/ }, async ({ path }) => {
      const all = JSON.parse(await readFile(path, 'utf8')) as Record<string, { message: string }>;
      const kept = Object.fromEntries(
        Object.entries(all)
          .filter(([key]) => PAGE_MESSAGES.test(key))
          .map(([key, { message }]) => [key, { message }]),
      );
      return { contents: JSON.stringify(kept), loader: 'json' };
    });
  },
};

function asset(body: Buffer, type: string): Asset {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

export interface RecipientBuild {
  /** The files by name: `recipient.js`, `sw.js`, `recipient.css`, `icon.png`. */
  files: Map<string, Asset>;
  /** Every source file bundled, relative to the project (none from node_modules: no third-party code). */
  inputs: string[];
}

async function buildAll(): Promise<RecipientBuild> {
  const result = await build({
    entryPoints: { recipient: here('./client/page.ts'), sw: here('./client/sw.ts') },
    bundle: true,
    write: false,
    outdir: here('./out'),
    format: 'iife',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    metafile: true,
    plugins: [messagesPlugin],
  });
  const js = 'text/javascript; charset=utf-8';
  const out = new Map<string, Asset>();
  for (const file of result.outputFiles) {
    const name = file.path.split('/').pop()!;
    out.set(name, asset(Buffer.from(file.contents), js));
  }
  out.set('recipient.css', asset(await readFile(here('./client/recipient.css')), 'text/css; charset=utf-8'));
  // The extension's icon, so that a tab or bookmark of the page shows Hushdrop's.
  out.set('icon.png', asset(await readFile(here('../../public/icon/32.png')), 'image/png'));
  return { files: out, inputs: Object.keys(result.metafile.inputs) };
}

let built: Promise<RecipientBuild> | undefined;

/** The page's files, built once per process (when first asked for). */
export function recipientAssets(): Promise<RecipientBuild> {
  built ??= buildAll();
  // A failed build is tried again on the next request rather than remembered.
  built.catch(() => {
    built = undefined;
  });
  return built;
}
