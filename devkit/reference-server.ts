// The Teknik stand-in the tests keep (tests/server: the product's server wrapped with test-only switches,
// taking no uploads in parts unless PARTS=1). The bench runs it as a process, by path: no import
// reaches into tests/.
import { resolve } from 'node:path';

/** The stand-in's command line, run with tsx; it prints its addresses as `npm run server` does. */
export const REFERENCE_SERVER_MAIN = resolve('tests/server/main.ts');
