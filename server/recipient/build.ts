// Builds the recipient page's script, its service worker, the home page's script and their style from the project's own code (lib/crypto,
// lib/i18n) with esbuild, in memory. The server run from the repository builds them when it first needs
// them (assets-source.ts); `npm run pack:server` builds them once into the package (assets-packed.ts).
import { readFile } from 'node:fs/promises';
import { build, type Plugin } from 'esbuild';
import { asset, type RecipientBuild, type RecipientFileName } from './asset';

const here = (path: string) => new URL(path, import.meta.url).pathname;

/**
 * Only the messages the pages can show go into their scripts (both languages), not the extension's:
 * the recipient page's, and the home page's with the upload errors, resuming and the "Delete after" choices.
 */
export const PAGE_MESSAGES =
  /^(recipient[A-Z]|home[A-Z]|resume[A-Z]|resuming$|link(NotWeb|EmptyKey|KeyCharacters|KeyLength|NoKey|SecretShape|FormatUnknown)$|integrity[A-Z]|bytes_|upload[A-Z]|parts[A-Z]|deleteAfter|deleteNever$)/;

/** Cuts the extension's message files down to the page's messages as they are bundled (the page's script, the server). */
export const pageMessagesPlugin: Plugin = {
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

/** `minify: false` keeps names readable (a test reads which messages the scripts ask for). */
export async function buildRecipientFiles({ minify = true } = {}): Promise<RecipientBuild> {
  const result = await build({
    entryPoints: {
      recipient: here('./client/page.ts'),
      sw: here('./client/sw.ts'),
      home: here('./client/home.ts'),
      'parts-worker': here('./client/parts-worker.ts'),
    },
    bundle: true,
    write: false,
    outdir: here('./out'),
    format: 'iife',
    target: ['es2022'],
    minify,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    metafile: true,
    plugins: [pageMessagesPlugin],
  });
  const files = new Map<string, ReturnType<typeof asset>>();
  for (const file of result.outputFiles) {
    const name = file.path.split('/').pop() as RecipientFileName;
    files.set(name, asset(name, Buffer.from(file.contents)));
  }
  files.set('recipient.css', asset('recipient.css', await readFile(here('./client/recipient.css'))));
  // The extension's icon, so that a tab or bookmark of the page shows Hushdrop's.
  files.set('icon.png', asset('icon.png', await readFile(here('../../public/icon/32.png'))));
  return { files, inputs: Object.keys(result.metafile.inputs) };
}
