// The words of a failed upload (issue 20): a failure to reach the server names the address that
// did not answer and offers the settings; an over-limit file offers another server (trying again
// cannot work); sizes are in IEC units; the server's own words are quoted as the server's.
import { describe, expect, it, vi } from 'vitest';
import { describeError, jobErrorText, sizeRefusal } from '../../lib/jobs/errors';
import { newProfile, type Profile } from '../../lib/settings';
import { sendUpload, type Transport, type UploadTarget } from '../../lib/upload';
import { networkError, timeoutError } from '../../lib/upload/errors';

const current: UploadTarget = {
  variant: 'current',
  addresses: {
    baseUrl: 'http://files.test',
    apiUrl: 'http://files.test/api',
    uploadUrl: 'http://files.test/u',
  },
};
const legacy: UploadTarget = { ...current, variant: 'legacy' };

/** What sendUpload rejects with, when the transport fails with `failure`. */
async function failure(target: UploadTarget, failure: unknown): Promise<unknown> {
  const transport = vi.fn<Transport>(async () => {
    throw failure;
  });
  return sendUpload({
    target,
    options: { mode: 'none', saveKey: false, genDeletionKey: true, doNotTrack: true },
    file: { name: 'a.txt', type: 'text/plain' },
    body: new Blob(['a']),
    transport,
  }).then(
    () => 'resolved',
    (e: unknown) => e,
  );
}

const profile: Profile = newProfile('p1', 'Team server');

describe('a server that does not answer', () => {
  it('names the API address (current variant) and offers the settings', async () => {
    for (const cause of [new TypeError('Failed to fetch'), networkError()]) {
      const told = describeError(await failure(current, cause));
      expect(told).toEqual({
        message: 'Nothing answered at http://files.test/api, or the connection broke off.',
        wayOut: 'settings',
      });
    }
  });

  it('names the base address (legacy variant)', async () => {
    expect(describeError(await failure(legacy, new TypeError('x'))).message).toBe(
      'Nothing answered at http://files.test, or the connection broke off.',
    );
  });

  it('a server that went silent is named too', async () => {
    expect(describeError(await failure(current, timeoutError()))).toEqual({
      message: 'The server at http://files.test/api stopped responding, so the upload was stopped.',
      wayOut: 'settings',
    });
  });
});

describe('a file over the server’s limit', () => {
  it('says the limit in IEC units, quotes the server, and offers another server, not a retry', async () => {
    const refused = await sendUpload({
      target: current,
      options: { mode: 'none', saveKey: false, genDeletionKey: true, doNotTrack: true },
      file: { name: 'big.bin', type: '' },
      body: new Blob(['x']),
      transport: async () => ({
        status: 413,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message: 'File Too Large.  Max file size is 5 MiB' } }),
      }),
    }).catch((e: unknown) => e);
    const told = sizeRefusal(refused, profile, 6 * 2 ** 20)!;
    expect(told.message).toBe('The file is too large for Team server: it only takes files of at most 5 MiB.');
    expect(told.wayOut).toBe('another-server');
    expect(jobErrorText({ error: told.message, errorDetail: told.detail })).toBe(
      'The file is too large for Team server: it only takes files of at most 5 MiB. The server said: “File Too Large.  Max file size is 5 MiB”',
    );
  });
});
