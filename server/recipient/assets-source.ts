// Where the page's files come from in the repository: built from the sources with esbuild (a development
// tool) on first use, so a server always serves what its sources say. `npm run pack:server` bundles
// assets-packed.ts in this module's place: the installed package reads the files built at pack time and
// holds no build tool.
export { buildRecipientFiles as loadRecipientFiles } from './build';
