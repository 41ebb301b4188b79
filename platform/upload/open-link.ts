// Opening a link into a disk-backed OPFS scratch file (lib/upload/open.ts does the download and
// the decryption), for the viewer to offer as a download. Nothing is rendered in the extension's
// origin. The decrypted copy is plaintext on disk: the viewer holds its lock and removes it when
// the tab goes; the background sweeps what a closed tab could not remove.
import { OPEN_UNANNOUNCED_LIMIT, type OpenOptions, type OpenTarget, openLink } from '../../lib/upload/open';
import { createScratch, type Scratch } from '../storage/scratch-files';

export async function openToDisk(
  target: OpenTarget,
  options: Omit<OpenOptions, 'fetch' | 'openSink'> = {},
): Promise<{ file: File; contentType: string; cleanup: () => Promise<void> }> {
  const held: { scratch?: Scratch } = {};
  try {
    const { contentType } = await openLink(target, {
      unannouncedLimit: await roomOnDisk(),
      ...options,
      fetch: (url, init) => fetch(url, init),
      openSink: async () => {
        held.scratch = await createScratch('open');
        return held.scratch.handle.createWritable();
      },
    });
    const scratch = held.scratch!;
    return { file: await scratch.handle.getFile(), contentType, cleanup: scratch.remove };
  } catch (err) {
    await held.scratch?.remove();
    throw err;
  }
}

/** What a download with no known length may write: the default limit, or less when the browser has less room. */
async function roomOnDisk(): Promise<number> {
  const { quota, usage } = await navigator.storage.estimate().catch(() => ({ quota: undefined, usage: 0 }));
  return quota === undefined
    ? OPEN_UNANNOUNCED_LIMIT
    : Math.max(0, Math.min(OPEN_UNANNOUNCED_LIMIT, quota - (usage ?? 0)));
}
