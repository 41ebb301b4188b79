// Where the page's files come from in the installed package (scripts/pack-server.ts bundles this module in
// place of assets-source.ts): the `recipient/` folder the pack built beside the folder of the server's
// script (`bin/`). They are read when the server starts, with its code, so that installing a new version
// over a running one changes nothing it serves until it is restarted.
import { readFileSync } from 'node:fs';
import { asset, RECIPIENT_FILES, type RecipientBuild, type RecipientFileName } from './asset';

/** The folder beside the script's, in the package (import.meta.url is the bundled script's). */
const FOLDER = '../recipient/';

const files = new Map(
  (Object.keys(RECIPIENT_FILES) as RecipientFileName[]).map((name) => [
    name,
    asset(name, readFileSync(new URL(`${FOLDER}${name}`, import.meta.url))),
  ]),
);

export async function loadRecipientFiles(): Promise<RecipientBuild> {
  return { files, inputs: [] };
}
