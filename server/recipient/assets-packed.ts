// Where the page's files come from in the installed package (scripts/pack-server.ts bundles this module in
// place of assets-source.ts): the `recipient/` folder the pack built beside the folder of the server's
// script (`bin/`), read once.
import { readFile } from 'node:fs/promises';
import { asset, RECIPIENT_FILES, type RecipientBuild, type RecipientFileName } from './asset';

/** The folder beside the script's, in the package (import.meta.url is the bundled script's). */
export const PACKED_RECIPIENT_FOLDER = '../recipient/';

export async function loadRecipientFiles(): Promise<RecipientBuild> {
  const files = new Map<string, ReturnType<typeof asset>>();
  for (const name of Object.keys(RECIPIENT_FILES) as RecipientFileName[]) {
    const body = await readFile(new URL(`${PACKED_RECIPIENT_FOLDER}${name}`, import.meta.url));
    files.set(name, asset(name, body));
  }
  return { files, inputs: [] };
}
