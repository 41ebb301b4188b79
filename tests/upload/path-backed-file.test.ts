// The disk path's path-backed copy (platform/storage/path-backed-file.ts), against a stand-in for
// Chromium's deprecated FileSystem API: the entry's own File when the API finds the copy, and
// undefined (the caller then sends getFile()'s File) in every other case. Chromium itself is
// checked end to end in tests/e2e/chromium/large.e2e.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { pathBackedScratchFile } from '../../platform/storage/path-backed-file';

type Fail = (err: unknown) => void;
const g = globalThis as { webkitRequestFileSystem?: unknown };

/** A FileSystem API whose TEMPORARY root holds `files`; notes what it was asked. */
function legacyApi(files: Record<string, File>, asked: string[] = []) {
  return (type: number, _size: number, ok: (fs: unknown) => void, _fail: Fail) => {
    asked.push(`fs ${type}`);
    ok({
      root: {
        getFile(path: string, options: { create: boolean }, found: (e: unknown) => void, fail: Fail) {
          asked.push(`${path} create=${options.create}`);
          const file = files[path];
          if (!file)
            fail(new DOMException('A requested file or directory could not be found', 'NotFoundError'));
          else found({ file: (give: (f: File) => void) => give(file) });
        },
      },
    });
  };
}

afterEach(() => {
  delete g.webkitRequestFileSystem;
});

describe('pathBackedScratchFile', () => {
  it("gives the entry's File for the copy, asked of the TEMPORARY root without creating anything", async () => {
    const copy = new File([new Uint8Array(1000)], 'upload-x.bin');
    const asked: string[] = [];
    g.webkitRequestFileSystem = legacyApi({ 'upload-x.bin': copy }, asked);
    expect(await pathBackedScratchFile('upload-x.bin', 1000)).toBe(copy);
    expect(asked).toEqual(['fs 0', 'upload-x.bin create=false']);
  });

  it('gives nothing where the browser has no such API (Firefox)', async () => {
    expect(await pathBackedScratchFile('upload-x.bin', 1000)).toBeUndefined();
  });

  it('gives nothing when the copy is not there (TEMPORARY is another sandbox)', async () => {
    g.webkitRequestFileSystem = legacyApi({});
    expect(await pathBackedScratchFile('upload-x.bin', 1000)).toBeUndefined();
  });

  it('gives nothing for a file of another size than the copy just written', async () => {
    g.webkitRequestFileSystem = legacyApi({
      'upload-x.bin': new File([new Uint8Array(999)], 'upload-x.bin'),
    });
    expect(await pathBackedScratchFile('upload-x.bin', 1000)).toBeUndefined();
  });

  it('gives nothing when the API refuses or throws', async () => {
    g.webkitRequestFileSystem = (_t: number, _s: number, _ok: unknown, fail: Fail) =>
      fail(new DOMException('The operation is insecure.', 'SecurityError'));
    expect(await pathBackedScratchFile('upload-x.bin', 1000)).toBeUndefined();
    g.webkitRequestFileSystem = () => {
      throw new TypeError('Illegal invocation');
    };
    expect(await pathBackedScratchFile('upload-x.bin', 1000)).toBeUndefined();
  });
});
