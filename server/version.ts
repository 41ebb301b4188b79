import { readFileSync } from 'node:fs';

/** The project's version (package.json), which the server reports as its own. */
export const SERVER_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
