// The page's files, loaded once per process when first asked for: built from the sources when the server
// runs from the repository, read from the files built at pack time in the installed package (see
// assets-source.ts).
import type { RecipientBuild } from './asset';
import { loadRecipientFiles } from './assets-source';

export type { Asset, RecipientBuild } from './asset';

let loaded: Promise<RecipientBuild> | undefined;

export function recipientAssets(): Promise<RecipientBuild> {
  loaded ??= loadRecipientFiles();
  // A failed load is tried again on the next request rather than remembered.
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
