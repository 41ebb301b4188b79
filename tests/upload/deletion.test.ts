import { describe, expect, it } from 'vitest';
import { deletionMessage, judgeDeletion } from '../../lib/upload/deletion';

// The answers servers give to a deletion link.
const teknikDeleted = { status: 200, body: '<h1>The file x32YI.png has been Deleted.</h1>' };
const teknikUnable = { status: 200, body: '<h1>The file x32YI.png was unable to be Deleted.</h1>' };
const fileDeleted = { status: 200, body: 'File deleted' };
const silentOk = { status: 204, body: '' };
const wrongKey = { status: 200, body: '{"error":{"message":"Invalid deletion key"}}' };
const notFound = { status: 404, body: '<h1>404 — Page Not Found</h1>' };
const serverError = { status: 500, body: '<h1>500</h1>' };

describe('a deletion is judged by whether the file is still served', () => {
  it('counts any answer as a deletion when the file is gone afterwards, whatever its words', () => {
    for (const answer of [teknikDeleted, fileDeleted, silentOk, { status: 200, body: 'OK' }])
      for (const after of [404, 410])
        expect(judgeDeletion(answer, after)).toEqual({ outcome: 'deleted', confirmed: true });
  });

  it('is a refusal when the file is still served, even if the answer says "deleted"', () => {
    for (const answer of [teknikDeleted, fileDeleted, teknikUnable, wrongKey, notFound, serverError])
      for (const after of [200, 206, 302])
        expect(judgeDeletion(answer, after)).toEqual({ outcome: 'refused', confirmed: true });
  });

  it('is "already gone" when the link did not work and the file is not there', () => {
    for (const answer of [notFound, teknikUnable, wrongKey, serverError, { status: 410, body: '' }])
      expect(judgeDeletion(answer, 404)).toEqual({ outcome: 'gone', confirmed: true });
  });

  it('falls back to the answer’s words only when the file’s URL could not tell', () => {
    for (const after of [undefined, 500, 401, 403]) {
      expect(judgeDeletion(teknikDeleted, after)).toEqual({ outcome: 'deleted', confirmed: false });
      expect(judgeDeletion(fileDeleted, after)).toEqual({ outcome: 'deleted', confirmed: false });
      expect(judgeDeletion(teknikUnable, after)).toEqual({ outcome: 'refused', confirmed: false });
      expect(judgeDeletion(wrongKey, after)).toEqual({ outcome: 'refused', confirmed: false });
      expect(judgeDeletion(silentOk, after)).toEqual({ outcome: 'refused', confirmed: false });
      expect(judgeDeletion(notFound, after)).toEqual({ outcome: 'gone', confirmed: false });
      expect(judgeDeletion({ status: 500, body: 'File deleted' }, after).outcome).toBe('refused');
    }
  });

  it('says which is which, and never claims a check it could not make', () => {
    expect(deletionMessage({ outcome: 'deleted', confirmed: true })).toBe(
      'The file was deleted from the server.',
    );
    expect(deletionMessage({ outcome: 'deleted', confirmed: false })).toMatch(/says .*could not check/);
    expect(deletionMessage({ outcome: 'refused', confirmed: true })).toMatch(/still there/);
    expect(deletionMessage({ outcome: 'refused', confirmed: false })).toMatch(
      /could not check.*may still be there/,
    );
    expect(deletionMessage({ outcome: 'gone', confirmed: true })).toMatch(/no longer has this file/);
  });
});
