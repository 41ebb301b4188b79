// Files handed from a page (the popup) or the service worker (right-click) to the job runner.
// Extension messages cannot carry bytes, so the file is copied into an OPFS scratch file, which
// the runner removes when the job ends; a sweep at browser start removes any a crash left behind.
// (They were IndexedDB records before: the browser kept their blob files on disk after the record
// was deleted, plaintext included.)
import { pathBackedScratchFile } from '../storage/path-backed-file';
import { copyIntoScratch } from '../storage/scratch-copy';
import { createScratch, openScratch, type Scratch } from '../storage/scratch-files';
import type { UploadInput } from './upload-file';

/** Copies the file into a scratch file and returns its id. */
export async function stageFile(file: Blob): Promise<string> {
  const scratch = await createScratch('staged');
  try {
    await copyIntoScratch(scratch, file.stream());
    scratch.release();
    return scratch.id;
  } catch (err) {
    await scratch.remove();
    throw err;
  }
}

/**
 * A scratch file as the file a job uploads: `file` has the name and type the job and its history
 * entry show (the scratch file's own name is an id). To send it as it is, `pathBacked` gives the
 * same bytes as a File with a path where the browser offers one: wrapped in `new File([...])` a File
 * loses its path, and Chromium then sends it through its slow pipe (path-backed-file.ts says why).
 * It must be called in the document that will send it, as entry.file() requires.
 */
export async function scratchUpload(scratch: Scratch, name: string, type: string): Promise<UploadInput> {
  const copy = await scratch.handle.getFile();
  return {
    file: new File([copy], name, { type }),
    pathBacked: () => pathBackedScratchFile(scratch.name, copy.size),
  };
}

/** The staged file (disk-backed, not read into memory), or undefined when it is gone. */
export async function takeStagedFile(
  id: string,
  name: string,
  type: string,
): Promise<UploadInput | undefined> {
  try {
    const scratch = await openScratch('staged', id);
    scratch.release();
    return await scratchUpload(scratch, name, type);
  } catch {
    return undefined;
  }
}

export async function dropStagedFile(id: string): Promise<void> {
  await (await openScratch('staged', id)).remove();
}
