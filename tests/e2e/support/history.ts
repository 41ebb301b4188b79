// The extension's upload history as its pages see it: the number of entries in its IndexedDB.

/** Runs in an extension page: the number of uploads in the history database (0 when there is none). */
export function countUploads(): Promise<number> {
  return new Promise<number>((res, rej) => {
    const open = indexedDB.open('hushdrop');
    // No database yet: do not create an empty one under the extension's feet (an empty version 1
    // would make the extension skip its upgrade, and its history writes would fail).
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => (open.error?.name === 'AbortError' ? res(0) : rej(open.error));
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('uploads')) return res(0);
      const req = db.transaction('uploads').objectStore('uploads').count();
      req.onsuccess = () => res(req.result);
      req.onerror = () => rej(req.error);
    };
  });
}

/** Number of uploads in the history, read in an extension page (a driver's page or Playwright's). */
export function historyCount(page: {
  evaluate(fn: () => Promise<number>): Promise<number>;
}): Promise<number> {
  return page.evaluate(countUploads);
}

/**
 * Runs in an extension page: puts `entry` in the history as an upload would have, once the
 * extension has made its database (false before: poll it from a page that opens it, the uploads
 * list). Self-contained, as it is sent as source.
 */
export function putUpload(entry: Record<string, unknown>): Promise<boolean> {
  return new Promise<boolean>((res, rej) => {
    const open = indexedDB.open('hushdrop');
    // Not made yet: an empty version 1 here would make the extension skip its upgrade.
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => (open.error?.name === 'AbortError' ? res(false) : rej(open.error));
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('uploads')) {
        db.close();
        return res(false);
      }
      const tx = db.transaction('uploads', 'readwrite');
      tx.objectStore('uploads').put(entry);
      tx.oncomplete = () => {
        db.close();
        res(true);
      };
      tx.onerror = () => rej(tx.error);
    };
  });
}
