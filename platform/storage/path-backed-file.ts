// A scratch file (OPFS) as a File that has a path on disk, where the browser offers one.
//
// Why: in Chromium, a File with a path is read by the network process straight from disk when XHR
// sends a form (blink FormData::EncodeMultiPartFormData). The File that
// FileSystemFileHandle.getFile() gives has no path, so it is sent through AsDataPipeGetter: a 64 KiB
// mojo pipe filled by async reads in the browser process and drained 16 KiB per socket write, one
// cross-process round trip every 16 KiB. That made sending the encrypted copy 2–3× slower than
// sending the file the person picked (bench/README.md, "The disk path's send").
//
// The deprecated FileSystem API reaches the same bytes with a path: in Chromium,
// webkitRequestFileSystem(TEMPORARY) resolves to the OPFS root, and FileEntry.file() gives a
// path-backed File. It is Chromium only (Firefox has no webkitRequestFileSystem), so it is detected
// here, and every failure (missing, refused, not found, other bytes) means "use getFile()".
// The XHR must be made by the document that called entry.file(): the runner sends from the
// document it encrypts in, so that holds. Nothing is ever created or written through this API.

/** The FileSystem API's TEMPORARY type (window.TEMPORARY in Chromium). */
const TEMPORARY = 0;
/** A legacy API that never answers must not hold an upload up: fall back after this long. */
const ANSWER_WITHIN_MS = 10_000;

type Fail = (err: unknown) => void;
interface LegacyFileEntry {
  file(ok: (file: File) => void, fail: Fail): void;
}
interface LegacyFileSystem {
  root: {
    getFile(
      path: string,
      options: { create: boolean },
      ok: (entry: LegacyFileEntry) => void,
      fail: Fail,
    ): void;
  };
}
type RequestFileSystem = (type: number, size: number, ok: (fs: LegacyFileSystem) => void, fail: Fail) => void;

/** Calls a callback-style function, as a promise that rejects on its error callback or a throw. */
function callback<T>(start: (ok: (value: T) => void, fail: Fail) => void): Promise<T> {
  return new Promise<T>((ok, fail) => start(ok, fail));
}

async function viaLegacyApi(request: RequestFileSystem, name: string): Promise<File> {
  const fs = await callback<LegacyFileSystem>((ok, fail) => request.call(globalThis, TEMPORARY, 0, ok, fail));
  const entry = await callback<LegacyFileEntry>((ok, fail) =>
    fs.root.getFile(name, { create: false }, ok, fail),
  );
  return callback<File>((ok, fail) => entry.file(ok, fail));
}

/**
 * The OPFS root's file `name` as a path-backed File, or undefined where the browser has no such
 * way (or it fails, or finds a file of another size than `size`, the size just written).
 */
export async function pathBackedScratchFile(name: string, size: number): Promise<File | undefined> {
  const request = (globalThis as { webkitRequestFileSystem?: unknown }).webkitRequestFileSystem;
  if (typeof request !== 'function') return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), ANSWER_WITHIN_MS);
  });
  try {
    const file = await Promise.race([viaLegacyApi(request as RequestFileSystem, name), late]);
    // TEMPORARY may be a sandbox of its own in another Chromium (then the name is not found); a
    // file of another size is not the copy just written.
    return file instanceof Blob && file.size === size ? file : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
