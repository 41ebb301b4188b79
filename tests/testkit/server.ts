// The reference upload server, as tests, the bench and `npm start` reach it. It is moving to a
// top-level server/ folder: this file is the one place that names where it lives.
import { resolve } from 'node:path';

export {
  type DeletionMode,
  findInRecorded,
  type RecordedRequest,
  type ReferenceServer,
  type ServerOptions,
  startServer,
} from '../server/server';
export { startTestServer, type TestServer } from '../server/test-helpers';

/** The server's command line (`npm run server`), run with tsx; it prints its addresses. */
export const REFERENCE_SERVER_MAIN = resolve('tests/server/main.ts');
