// Scratch files in the origin private file system (OPFS): the encrypted copy of an upload
// (`upload-`), the decrypted copy of an opened link (`open-`, plaintext), and a file handed from a
// page to the job runner (`staged-`, plaintext). Whoever uses one holds a Web Lock of the same name,
// so a sweep removes only files nobody holds: those left by a closed tab or a crash.
export type ScratchKind = 'upload' | 'open' | 'staged';

const SUFFIX = '.bin';
const LOCK_PREFIX = 'hushdrop-opfs:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function scratchName(kind: ScratchKind, id: string): string {
  if (!UUID.test(id)) throw new Error('Not a scratch file id.');
  return `${kind}-${id}${SUFFIX}`;
}

/** Holds the Web Lock of a scratch file until the returned function is called (a no-op where locks are missing). */
export function holdLock(name: string): Promise<() => void> {
  const locks = (navigator as Partial<Navigator>).locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((acquired) => {
    locks
      .request(`${LOCK_PREFIX}${name}`, () => new Promise<void>((release) => acquired(release)))
      .catch(() => acquired(() => {}));
  });
}

/** Removes a file; a worker that was just terminated may hold its sync access handle a moment longer. */
export async function removeFile(root: FileSystemDirectoryHandle, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await root.removeEntry(name);
      return;
    } catch (err) {
      if ((err as DOMException)?.name === 'NotFoundError' || attempt >= 20) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export interface Scratch {
  id: string;
  name: string;
  root: FileSystemDirectoryHandle;
  handle: FileSystemFileHandle;
  /** Lets go of the lock without removing the file (it is handed to another context). */
  release(): void;
  /** Removes the file, then lets go of the lock. */
  remove(): Promise<void>;
}

async function hold(kind: ScratchKind, id: string, create: boolean): Promise<Scratch> {
  const name = scratchName(kind, id);
  // Taken before the file is touched, so a sweep from another context never removes it while in use.
  const release = await holdLock(name);
  try {
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle(name, { create });
    let released = false;
    const letGo = () => {
      if (!released) release();
      released = true;
    };
    return {
      id,
      name,
      root,
      handle,
      release: letGo,
      remove: async () => {
        try {
          await removeFile(root, name);
        } finally {
          letGo();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

/** A new scratch file, held by its lock. */
export function createScratch(kind: ScratchKind): Promise<Scratch> {
  return hold(kind, crypto.randomUUID(), true);
}

/** An existing scratch file (handed over by another context), held by its lock. */
export function openScratch(kind: ScratchKind, id: string): Promise<Scratch> {
  return hold(kind, id, false);
}

/** Removes the scratch files of these kinds that no context holds; returns how many. */
export async function sweepScratch(kinds: readonly ScratchKind[]): Promise<number> {
  const locks = (navigator as Partial<Navigator>).locks;
  if (!locks || !navigator.storage?.getDirectory) return 0;
  const root = await navigator.storage.getDirectory();
  const names: string[] = [];
  for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys())
    if (kinds.some((k) => name.startsWith(`${k}-`)) && name.endsWith(SUFFIX)) names.push(name);
  let removed = 0;
  for (const name of names) {
    await locks.request(`${LOCK_PREFIX}${name}`, { ifAvailable: true }, async (lock) => {
      if (!lock) return;
      await root.removeEntry(name).then(
        () => removed++,
        () => {},
      );
    });
  }
  return removed;
}

async function anyOf(kind: ScratchKind): Promise<boolean> {
  const root = await navigator.storage.getDirectory();
  for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys())
    if (name.startsWith(`${kind}-`)) return true;
  return false;
}

/**
 * After a tab closed: remove decrypted copies no viewer holds any more. A closing page lets go of
 * its lock a moment after the tab is gone, so this looks a few times.
 */
export async function sweepClosedViewers(): Promise<void> {
  for (const wait of [100, 1000, 3000]) {
    await new Promise((r) => setTimeout(r, wait));
    if (!(await anyOf('open'))) return;
    await sweepScratch(['open']);
  }
}
