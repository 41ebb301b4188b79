// Files handed from a page (the popup) or the service worker (right-click) to the job runner.
// Extension messages cannot carry bytes, so the file is copied into an OPFS scratch file, which
// the runner removes when the job ends; a sweep at browser start removes any a crash left behind.
// (They were IndexedDB records before: the browser kept their blob files on disk after the record
// was deleted, plaintext included.)
import { copyIntoScratch } from '../storage/scratch-copy';
import { createScratch, openScratch } from '../storage/scratch-files';

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

/** The staged file (disk-backed, not read into memory), or undefined when it is gone. */
export async function takeStagedFile(id: string, name: string, type: string): Promise<File | undefined> {
  try {
    const scratch = await openScratch('staged', id);
    scratch.release();
    return new File([await scratch.handle.getFile()], name, { type });
  } catch {
    return undefined;
  }
}

export async function dropStagedFile(id: string): Promise<void> {
  await (await openScratch('staged', id)).remove();
}
