// "Test connection": a real tiny upload to the server, then its deletion; and whether the server is a
// Hushdrop server (GET _hushdrop/info), which takes the authenticated link format, and uploads in
// parts: its answer is kept in the server's capability record (server-info.ts).

import { t } from '../../lib/i18n';
import { withServerWords } from '../../lib/jobs/errors';
import type { ServerSettings } from '../../lib/settings';
import { uploadTarget } from '../../lib/settings';
import { deletionLink, sendUpload, UploadError, xhrTransport } from '../../lib/upload';
import { deletionMessage } from '../../lib/upload/deletion';
import { type ServerKind, UNKNOWN_SERVER } from '../../lib/upload/server-kind';
import { deleteOnServer } from './deletion';
import { learnServerKind } from './server-info';

export async function testConnection(
  server: ServerSettings,
): Promise<{ ok: boolean; text: string; kind?: ServerKind }> {
  const outcome = await testUpload(server);
  if (!outcome.ok) return outcome;
  // What the server says it is also seeds the record its uploads are planned with.
  return { ...outcome, kind: (await learnServerKind(uploadTarget(server))) ?? UNKNOWN_SERVER };
}

async function testUpload(server: ServerSettings): Promise<{ ok: boolean; text: string }> {
  const target = uploadTarget(server);
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
