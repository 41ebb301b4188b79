// Right-click uploads: images, video, audio, links, selected text, and a screenshot of the page.
import { browser } from 'wxt/browser';
import { fileNameFromUrl, fileStamp } from '../../lib/history/file-names';
import { t } from '../../lib/i18n';
import type { UploadSource } from '../../lib/jobs/model';
import { originPattern } from '../../lib/settings';
import { requestOrigins } from '../permissions';
import { startJob } from './host';
import { stageFile } from './staging';

export const MENU = {
  media: 'hushdrop-upload-media',
  link: 'hushdrop-upload-link',
  selection: 'hushdrop-upload-selection',
  page: 'hushdrop-upload-screenshot',
} as const;

export function createMenus(): void {
  browser.contextMenus.removeAll();
  browser.contextMenus.create({
    id: MENU.media,
    title: t('menuMedia'),
    contexts: ['image', 'video', 'audio'],
  });
  browser.contextMenus.create({
    id: MENU.link,
    title: t('menuLink'),
    contexts: ['link'],
  });
  browser.contextMenus.create({
    id: MENU.selection,
    title: t('menuSelection'),
    contexts: ['selection'],
  });
  browser.contextMenus.create({
    id: MENU.page,
    title: t('menuPage'),
    contexts: ['page'],
  });
}

const PAGE_FETCH_CAP = 64 * 1024 * 1024;

/** Runs in the page: fetch with the page's own origin and cookies (works for blob: and data:). */
async function fetchInPage(
  url: string,
  cap: number,
): Promise<{ type: string; base64: string } | { error: string }> {
  try {
    const res = await fetch(url, { credentials: 'include' });
    // Firefox's content scripts fetch with the extension's host access: a redirect to another
    // site is left to the extension's own fetch, which refuses it with a sentence.
    if (res.url && new URL(res.url).origin !== new URL(url, location.href).origin) {
      await res.body?.cancel();
      return { error: 'redirected to another site' };
    }
    if (!res.ok) return { error: `HTTP ${res.status}` };
    // Read no more than the cap: a bigger file is left to the extension, which fetches it to disk.
    const tooBig = { error: 'too big to pass from the page' };
    if (Number(res.headers.get('content-length')) > cap) {
      await res.body?.cancel();
      return tooBig;
    }
    const parts: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    for (;;) {
      const step = reader ? await reader.read() : { done: true as const };
      if (step.done) break;
      size += step.value.length;
      if (size > cap) {
        await reader!.cancel();
        return tooBig;
      }
      parts.push(step.value as Uint8Array<ArrayBuffer>);
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const blob = new Blob(parts, { type });
    const data = await new Promise<string>((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(String(r.result));
      r.onerror = () => reject(r.error);
      r.readAsDataURL(blob);
    });
    return { type: blob.type, base64: data.slice(data.indexOf(',') + 1) };
  } catch (err) {
    return { error: String(err) };
  }
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(base64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Asks at once for the site of a file that lives on another site than the page: Firefox shows
 * the permission prompt only while the menu click is being handled, before anything is awaited
 * (later, as after the in-page fetch fails, it refuses). Already granted: true, no prompt.
 * Undefined when no question is needed (same site as the page, blob:, data:).
 */
function askForFileSite(url: string | undefined, pageUrl: string | undefined): Promise<boolean> | undefined {
  try {
    if (!url || !/^https?:/i.test(url)) return undefined;
    if (pageUrl && new URL(url).origin === new URL(pageUrl).origin) return undefined;
    return requestOrigins([originPattern(url)]).catch(() => false);
  } catch {
    return undefined;
  }
}

/** Bytes from the page when it can give them, else a URL the extension fetches itself. */
async function sourceForUrl(
  url: string,
  tabId: number | undefined,
  frameId: number | undefined,
  asked: Promise<boolean> | undefined,
): Promise<UploadSource> {
  if (tabId !== undefined && tabId >= 0 && browser.scripting) {
    try {
      const [res] = await browser.scripting.executeScript({
        target: { tabId, frameIds: [frameId ?? 0] },
        func: fetchInPage,
        args: [url, PAGE_FETCH_CAP],
      });
      const r = res?.result as Awaited<ReturnType<typeof fetchInPage>> | undefined;
      if (r && 'base64' in r) {
        const file = new File([bytesOf(r.base64)], fileNameFromUrl(url, r.type, 'upload'), { type: r.type });
        return {
          kind: 'staged',
          id: await stageFile(file),
          name: file.name,
          type: file.type,
          size: file.size,
        };
      }
    } catch {
      // the page refused (CORS, restricted page): fetch from the extension below
    }
  }
  if (url.startsWith('blob:')) throw new Error(t('blobRefused'));
  if (!url.startsWith('data:')) {
    const origin = originPattern(url);
    const allowed = asked
      ? await asked
      : (await browser.permissions.contains({ origins: [origin] })) ||
        (await browser.permissions.request({ origins: [origin] }).catch(() => false));
    if (!allowed) throw new Error(t('fetchNotAllowed', new URL(url).host));
  }
  return { kind: 'url', url };
}

export async function onMenuClick(
  info: {
    menuItemId: string | number;
    srcUrl?: string;
    linkUrl?: string;
    selectionText?: string;
    frameId?: number;
    pageUrl?: string;
  },
  tab?: { id?: number; windowId?: number },
): Promise<string | undefined> {
  // Before any await: see askForFileSite.
  const fileUrl =
    info.menuItemId === MENU.media ? info.srcUrl : info.menuItemId === MENU.link ? info.linkUrl : undefined;
  const asked = askForFileSite(fileUrl, info.pageUrl);
  try {
    let source: UploadSource;
    if (info.menuItemId === MENU.media && info.srcUrl)
      source = await sourceForUrl(info.srcUrl, tab?.id, info.frameId, asked);
    else if (info.menuItemId === MENU.link && info.linkUrl)
      source = await sourceForUrl(info.linkUrl, tab?.id, info.frameId, asked);
    else if (info.menuItemId === MENU.selection && info.selectionText)
      source = { kind: 'text', text: info.selectionText, name: `selection-${fileStamp()}.txt` };
    else if (info.menuItemId === MENU.page) {
      const dataUrl = await browser.tabs.captureVisibleTab(
        tab?.windowId ?? browser.windows.WINDOW_ID_CURRENT,
        {
          format: 'png',
        },
      );
      const file = new File(
        [bytesOf(dataUrl.slice(dataUrl.indexOf(',') + 1))],
        `screenshot-${fileStamp()}.png`,
        {
          type: 'image/png',
        },
      );
      source = {
        kind: 'staged',
        id: await stageFile(file),
        name: file.name,
        type: file.type,
        size: file.size,
      };
    } else return undefined;
    return await startJob(source);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await browser.notifications
      .create({
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icon/128.png'),
        title: t('menuFailed'),
        message,
      })
      .catch(() => {});
    return undefined;
  }
}
