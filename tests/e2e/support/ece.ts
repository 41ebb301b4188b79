// Files in the authenticated link format (#ece1.), uploaded by the real extension, and a byte of
// one changed where the server keeps it: what the viewer and the recipient page must refuse.
import { expect } from 'vitest';
import { serverSettings } from '../../../devkit/settings';
import { DEFAULT_UPLOAD } from '../../../lib/settings';
import type { ReferenceServer } from '../../testkit/server';
import type { Driver, FileSpec } from '../driver/driver';
import { fileNameOf, uploadThroughPage } from './uploads';

/** A link in the authenticated format: the file's address, then `#ece1.` and the 22-character secret. */
export const ECE_LINK = /#ece1\.[A-Za-z0-9_-]{22}$/;

/** Settings whose profile (on `server`, current variant) uploads in the authenticated format. */
export const eceSettings = (server: ReferenceServer) =>
  serverSettings(server, 'current', { defaults: { ...DEFAULT_UPLOAD, format: 'ece' } });

/**
 * Uploads `file` through the upload page of an extension set to the authenticated format (see
 * eceSettings); returns its link and the server's stored copy, recorded as that format.
 */
export async function uploadEce(d: Pick<Driver, 'open'>, server: ReferenceServer, file: FileSpec) {
  const link = await uploadThroughPage(d, file);
  expect(link).toMatch(ECE_LINK);
  const stored = (await server.stored(fileNameOf(link)))!;
  expect(stored.linkFormat).toBe('ece1');
  return { link, stored };
}

/** Flips one bit of the stored bytes at `offset`, through the server's store (its disk). */
export async function changeStoredByte(
  server: ReferenceServer,
  fileName: string,
  offset: number,
): Promise<void> {
  const stored = (await server.stored(fileName))!;
  const bytes = await stored.bytes();
  bytes[offset]! ^= 1;
  await stored.replaceBytes(bytes);
}
