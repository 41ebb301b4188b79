// Any name is an ordinary name (issue 31, finding 6): an upload called `x.tmp` is stored and served like any
// other (the disk store's temporary files once shared its names: 500 and a stack trace naming the file), a
// name no upload can have answers 404, and no name reaches the server's error output. Disk and S3.

import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import {
  bytesOf,
  currentUploadUrl,
  form,
  getBytes,
  legacyUploadUrl,
  post,
  serversStoppedAfterEach,
} from './test-helpers';

const start = serversStoppedAfterEach();

let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  errors = vi.spyOn(console, 'error');
});
afterEach(() => errors.mockRestore());

/** Everything the server wrote to its error output during the test, as text. */
const errorOutput = () =>
  errors.mock.calls
    .map((args) => args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '))
    .join('\n');

describe('names that look like the store’s own files', () => {
  it('an upload called x.tmp (and x.json, x.part, x.parts) is stored and served, on both variants', async () => {
    const { server } = await start();
    for (const url of [currentUploadUrl(server), legacyUploadUrl(server)]) {
      for (const name of ['x.tmp', 'x.json', 'x.part', 'x.parts', 'x.lock']) {
        const text = `the bytes of ${name}`;
        const made = await post(url, form({ encrypt: 'false', file: { bytes: bytesOf(text), name } }));
        expect(made.status, made.text).toBe(200);
        const { fileName } = made.json.result;
        expect(fileName.endsWith(name.slice(1))).toBe(true);
        const got = await getBytes(made.json.result.url);
        expect(got.status).toBe(200);
        expect(new TextDecoder().decode(got.bytes)).toBe(text);
      }
    }
    expect(errorOutput()).toBe('');
  });

  it('a name that is not there, or that no upload can have, answers 404 and names nothing in the error output', async () => {
    const { server } = await start();
    const names = [
      'abcde.tmp',
      'abcde.json',
      'zz9Qx.part',
      // As long as a name may be, and longer.
      `a${'b'.repeat(63)}.${'c'.repeat(135)}`,
      `a${'b'.repeat(63)}.${'c'.repeat(200)}`,
      `${'a'.repeat(300)}`,
    ];
    for (const name of names) {
      for (const url of [`${server.uploadUrl}/${name}`, `${server.baseUrl}/${name}?sub=u`]) {
        const res = await fetch(url);
        await res.arrayBuffer();
        expect(res.status, `${url}`).toBe(404);
      }
    }
    const output = errorOutput();
    for (const name of names) expect(output).not.toContain(name);
  });

  it('a file name with a very long extension gives a link that works', async () => {
    const { server } = await start();
    const name = `x.${'e'.repeat(250)}`;
    const made = await post(
      currentUploadUrl(server),
      form({ encrypt: 'false', file: { bytes: bytesOf('long'), name } }),
    );
    expect(made.status, made.text).toBe(200);
    expect(made.json.result.fileName.length).toBeLessThanOrEqual(200);
    const got = await getBytes(made.json.result.url);
    expect(new TextDecoder().decode(got.bytes)).toBe('long');
    expect(errorOutput()).not.toContain('eeeeeeeeee');
  });
});
