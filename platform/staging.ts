// Files handed from a page (popup, upload page) or the worker to the upload job runner. Stored
// in IndexedDB because extension messages cannot carry bytes; the browser keeps such blobs on disk.
import { stagedStore } from './history';

export async function stageFile(file: File): Promise<string> {
  const id = crypto.randomUUID();
  await (await stagedStore()).put('staged', { id, file, time: Date.now() });
  return id;
}

export async function takeStagedFile(id: string): Promise<File | undefined> {
  const db = await stagedStore();
  return (await db.get('staged', id))?.file;
}

export async function dropStagedFile(id: string): Promise<void> {
  await (await stagedStore()).delete('staged', id);
}
