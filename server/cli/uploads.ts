// `uploads list [--json]` and `uploads remove <link or name>`: what an operator needs after an abuse
// report. Both use the store the server's settings name. On S3 they work directly, also while servers run
// (instances share nothing else). On disk, listing reads the records beside a running server (records are
// replaced whole, by rename); removing goes through the running server's admin socket (one process holds
// the folder), or works directly when no server runs on it. Neither ever prints a key, an IV, a deletion
// key or a blob id, although records of uploads whose key the server keeps hold one.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { removeThroughServer } from '../admin';
import type { ServerSettings } from '../config/settings';
import { bytesReadable } from '../http/responses';
import { route } from '../router';
import { openDiskStorage } from '../storage/disk';
import { DataDirInUseError } from '../storage/disk-lock';
import { DiskRecords } from '../storage/disk-records';
import { openS3Storage } from '../storage/s3';
import type { JsonRecord, RecordStore } from '../storage/types';
import { isUploadName, parseUploadRecord, type UploadRecord } from '../uploads/record';
import { Uploads } from '../uploads/uploads';
import { UsageError } from './accounts';

/** A command that could not do what it was asked, with its sentence (exit code 1). */
export class CommandError extends Error {}

/** What `uploads list` shows of an upload: nothing secret. */
export interface ListedUpload {
  name: string;
  size: number;
  account: string | null;
  created: string;
  /** ISO time, or null when only views (or nothing) end it. */
  expires: string | null;
  views: number;
  /** 0 = no limit. */
  maxViews: number;
  /** Who encrypted it: the uploader's browser, the server (keeping the key or not), or no one. */
  encryption: 'browser' | 'server, key kept' | 'server, key not kept' | 'none';
}

export function listed(record: UploadRecord): ListedUpload {
  return {
    name: record.fileName,
    size: record.contentLength,
    account: record.username ?? null,
    created: new Date(record.createdAt).toISOString(),
    expires: record.expiresAt === null ? null : new Date(record.expiresAt).toISOString(),
    views: record.downloads,
    maxViews: record.maxDownloads,
    encryption:
      record.linkFormat === 'ece1' || (!record.encrypted && record.iv !== null)
        ? 'browser'
        : record.encrypted
          ? record.saved
            ? 'server, key kept'
            : 'server, key not kept'
          : 'none',
  };
}

/** The upload's name in a link (either variant, a deletion link, the recipient page's bytes) or a name. */
export function uploadNameOf(given: string): string {
  const text = given.trim();
  let name: string | undefined;
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new UsageError(`"${given}" is not a link.`);
    }
    const target = route('GET', `${url.pathname}${url.search}`);
    if (target.kind === 'download' || target.kind === 'delete') name = target.fileName;
    else {
      // A download address of its own (uploadUrl on another host), or the recipient page's bytes.
      const segments = url.pathname.split('/').filter(Boolean);
      const own = segments.indexOf('file');
      name = segments[0] === '_hushdrop' && own === 1 ? segments[2] : segments[0];
      try {
        name = name === undefined ? undefined : decodeURIComponent(name);
      } catch {
        name = undefined;
      }
    }
  } else name = text;
  if (!name || !isUploadName(name))
    throw new UsageError(
      `No upload name in "${given}": give a link (https://…/u/aB3dE.png) or a name (aB3dE.png).`,
    );
  return name;
}

function where(settings: ServerSettings): string {
  return settings.s3
    ? `s3://${settings.s3.bucket}/${settings.s3.prefix}${settings.s3.endpoint ? ` at ${settings.s3.endpoint}` : ''}`
    : `the data folder ${settings.dataDir}`;
}

function needDataDir(settings: ServerSettings): void {
  if (!existsSync(settings.dataDir))
    throw new CommandError(
      `There is no data folder ${settings.dataDir}: run this with the server's CONFIG (and DATA_DIR), as its user.`,
    );
}

async function listRecords(
  records: RecordStore<JsonRecord>,
): Promise<{ uploads: ListedUpload[]; others: number }> {
  const uploads: ListedUpload[] = [];
  let others = 0;
  for await (const stored of records.list()) {
    const record = parseUploadRecord(stored.value);
    if (record) uploads.push(listed(record));
    else others += 1;
  }
  uploads.sort((a, b) => a.created.localeCompare(b.created) || a.name.localeCompare(b.name));
  return { uploads, others };
}

const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')}Z`;

function table(uploads: ListedUpload[]): string {
  const rows = [
    ['NAME', 'SIZE', 'ACCOUNT', 'CREATED', 'EXPIRES', 'VIEWS', 'ENCRYPTED BY'],
    ...uploads.map((u) => [
      u.name,
      bytesReadable(u.size),
      u.account ?? '-',
      minute(u.created),
      u.expires ? minute(u.expires) : u.maxViews ? 'after views' : 'never',
      u.maxViews ? `${u.views}/${u.maxViews}` : String(u.views),
      u.encryption,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export async function listUploads(settings: ServerSettings, json: boolean): Promise<void> {
  let found: { uploads: ListedUpload[]; others: number };
  if (settings.s3) {
    const storage = openS3Storage(settings.s3);
    try {
      found = await listRecords(storage.records);
    } finally {
      await storage.close();
    }
  } else {
    needDataDir(settings);
    // Reads only: a server may hold the folder, and the store's own opening would tidy up its files.
    found = await listRecords(new DiskRecords(join(settings.dataDir, 'records')));
  }
  if (json) {
    for (const upload of found.uploads) console.log(JSON.stringify(upload));
    return;
  }
  console.log(`${found.uploads.length} upload(s) in ${where(settings)}.`);
  if (found.uploads.length) console.log(table(found.uploads));
  if (found.others) console.log(`(and ${found.others} record(s) of uploads in parts not finished yet)`);
}

export async function removeUpload(settings: ServerSettings, given: string | undefined): Promise<void> {
  if (!given) throw new UsageError('uploads remove needs a link or an upload name.');
  const name = uploadNameOf(given);
  const gone = (how: string, size: number, createdAt: number) =>
    console.log(
      `Removed ${name} (${bytesReadable(size)}, uploaded ${minute(new Date(createdAt).toISOString())}) ${how}.`,
    );
  const absent = () => new CommandError(`There is no upload ${name} in ${where(settings)}.`);

  if (settings.s3) {
    const storage = openS3Storage(settings.s3);
    try {
      const record = await new Uploads(storage, Date.now, settings.parts).takeDown(name);
      if (!record) throw absent();
      gone(
        `from ${where(settings)}, directly; no server on that store serves it any more`,
        record.contentLength,
        record.createdAt,
      );
    } finally {
      await storage.close();
    }
    return;
  }
  needDataDir(settings);
  let storage: Awaited<ReturnType<typeof openDiskStorage>>;
  try {
    storage = await openDiskStorage(settings.dataDir);
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    const { removed, pid } = await removeThroughServer(settings.dataDir, name);
    if (!removed) throw absent();
    gone(
      `through the server running on ${settings.dataDir} (process ${pid})`,
      removed.size,
      removed.createdAt,
    );
    return;
  }
  try {
    const record = await new Uploads(storage, Date.now, settings.parts).takeDown(name);
    if (!record) throw absent();
    gone(
      `from ${where(settings)}, directly (no server was running on it)`,
      record.contentLength,
      record.createdAt,
    );
  } finally {
    await storage.close();
  }
}
