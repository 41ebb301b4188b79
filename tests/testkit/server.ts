// The reference upload server as tests start it in their own process: the product's server (server/)
// with the test-only switches of tests/server. This file is the one place that names where it lives.
export {
  type DeletionMode,
  findInRecorded,
  type RecordedRequest,
  type ReferenceServer,
  type ServerOptions,
  startServer,
} from '../server/server';
export { startTestServer, type TestServer } from '../server/test-helpers';
