// A reference upload server for the scenarios of one test file: started before them, stopped after.
import { afterAll, beforeAll } from 'vitest';
import {
  type ReferenceServer,
  type ServerOptions,
  startTestServer,
  type TestServer,
} from '../../testkit/server';

/** Call at the top of a file; `.server` is there once the file's scenarios run. */
export function serverForFile(options: Partial<ServerOptions>): { readonly server: ReferenceServer } {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(options);
  });
  afterAll(async () => {
    await started?.stop();
  });
  return {
    get server() {
      if (!started) throw new Error('The reference server is used before the file’s scenarios started it.');
      return started.server;
    },
  };
}
