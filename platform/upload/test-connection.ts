// "Test connection": a real tiny upload to the server, then its deletion; and whether the server
// says it is a Hushdrop server (then its links open in any browser).

import { t } from '../../lib/i18n';
import { withServerWords } from '../../lib/jobs/errors';
import type { ServerSettings } from '../../lib/settings';
import { uploadTarget } from '../../lib/settings';
import { deletionLink, sendUpload, UploadError, type UploadTarget, xhrTransport } from '../../lib/upload';
import { deletionMessage } from '../../lib/upload/deletion';
import { isHushdropInfo, serverInfoUrl } from '../../lib/upload/server-info';
import { deleteOnServer } from './deletion';

/** A description is a few hundred bytes; a longer answer is not one. */
const INFO_LIMIT = 4096;

/** Whether the server describes itself as a Hushdrop server; any failure means it does not. */
async function isHushdropServer(target: UploadTarget): Promise<boolean> {
  try {
    const res = await fetch(serverInfoUrl(target), {
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok || !res.body) return false;
    const reader = res.body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      size += step.value.length;
      if (size > INFO_LIMIT) {
        await reader.cancel();
        return false;
      }
      parts.push(step.value);
    }
    return isHushdropInfo(JSON.parse(await new Blob(parts as BlobPart[]).text()));
  } catch {
    return false;
  }
}

export async function testConnection(server: ServerSettings): Promise<{ ok: boolean; text: string }> {
  const target = uploadTarget(server);
  const hushdrop = isHushdropServer(target);
  const result = await testUpload(target);
  return (await hushdrop) ? { ...result, text: `${result.text} ${t('testHushdrop')}` } : result;
}

async function testUpload(target: UploadTarget): Promise<{ ok: boolean; text: string }> {
  try {
    const result = await sendUpload({
      target,
      options: {
        mode: 'none',
        saveKey: false,
        genDeletionKey: true,
        expireUnit: 'never',
        expireLength: 1,
        doNotTrack: true,
      },
      file: { name: 'hushdrop-connection-test.txt', type: 'text/plain' },
      body: new Blob(['Hushdrop connection test. This file is deleted right away.\n'], {
        type: 'text/plain',
      }),
      transport: xhrTransport(XMLHttpRequest),
      timeoutMs: 30_000,
    });
    const link = deletionLink(target, result);
    if (!link)
      return {
        ok: false,
        text: t('testNoDeletionLink'),
      };
    const verdict = await deleteOnServer(link, result.url.split('#')[0]!);
    if (verdict.outcome !== 'deleted')
      return {
        ok: false,
        text: t('testDeletionFailed', deletionMessage(verdict)),
      };
    return {
      ok: true,
      text: verdict.confirmed ? t('testWorks') : t('testWorksUnchecked'),
    };
  } catch (err) {
    if (err instanceof UploadError)
      return {
        ok: false,
        text: withServerWords(err.message, err.serverMessage),
      };
    return {
      ok: false,
      text: t('testDeletionUnreachable'),
    };
  }
}
