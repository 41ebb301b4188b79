// A part's bytes as the page hands them to XMLHttpRequest. Chromium sends an ArrayBuffer body slowly,
// copying it on the page's thread (a 48 MiB upload took 40 s, 16.5 s of it in send), and a Blob's
// bytes stay in the browser until the Blob is collected, which can be long after it was sent (an
// upload grew the browser by about the file's size). So a part is written to a file of the origin's
// private file system and sent from disk, and the file is removed once the request has ended: the
// browser then holds a few parts at most, whatever the file's size. Where that file system cannot be
// written (an older engine, a private window), the part goes as a Blob.

/** The names of this page's part files. */
export const PART_PREFIX = 'hushdrop-part-';

/** Runs `send` with the part as a disk-backed File (or a Blob), and removes that file afterwards. */
export async function withPartFile<T>(
  bytes: Uint8Array<ArrayBuffer>,
  send: (body: Blob) => Promise<T>,
): Promise<T> {
  const name = `${PART_PREFIX}${crypto.randomUUID()}`;
  let dir: FileSystemDirectoryHandle | undefined;
  let file: File | undefined;
  try {
    dir = await navigator.storage.getDirectory();
    const handle = await dir.getFileHandle(name, { create: true });
    const writable = await handle.createWritable();
    await writable.write(bytes);
    await writable.close();
    file = await handle.getFile();
  } catch {
    dir = undefined;
  }
  try {
    return await send(file ?? new Blob([bytes]));
  } finally {
    await dir?.removeEntry(name).catch(() => {});
  }
}

/** A part file older than this was left by a tab that closed mid-upload (no part takes this long). */
const LEFT_AFTER_MS = 6 * 60 * 60 * 1000;

/** Removes the part files a closed tab left behind (best-effort; other tabs' recent ones stay). */
export async function sweepPartFiles(now = Date.now()): Promise<void> {
  try {
    const dir = await navigator.storage.getDirectory();
    for await (const [name, handle] of dir as unknown as AsyncIterable<[string, FileSystemHandle]>) {
      if (!name.startsWith(PART_PREFIX) || handle.kind !== 'file') continue;
      const file = await (handle as FileSystemFileHandle).getFile();
      if (now - file.lastModified > LEFT_AFTER_MS) await dir.removeEntry(name).catch(() => {});
    }
  } catch {
    // No private file system here: nothing was left in one.
  }
}
