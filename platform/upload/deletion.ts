// Deleting an upload on its server, for the history and for Test connection: follow the deletion
// link, then look whether the file is still served (the verdict is lib/upload/deletion.ts).
import { type DeletionVerdict, judgeDeletion } from '../../lib/upload/deletion';

// No cookies, no Referer (a referrer could carry a link), and never a cached answer.
const PLAIN: RequestInit = { credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' };

/** The file URL's status, without downloading it: the body is dropped once the head arrived. */
async function fileStatus(fileUrl: string): Promise<number | undefined> {
  // GET, not HEAD: a server need not route HEAD like GET, and a 404 to HEAD would pass for "gone".
  const abort = new AbortController();
  try {
    const res = await fetch(fileUrl, { ...PLAIN, signal: abort.signal });
    return res.status;
  } catch {
    return undefined;
  } finally {
    abort.abort();
  }
}

/** Follows `deletionLink` and checks `fileUrl` afterwards. Throws when the link cannot be reached. */
export async function deleteOnServer(deletionLink: string, fileUrl: string): Promise<DeletionVerdict> {
  const res = await fetch(deletionLink, PLAIN);
  const answer = { status: res.status, body: await res.text() };
  return judgeDeletion(answer, await fileStatus(fileUrl));
}
