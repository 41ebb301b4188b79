// The operator's way into a running server on disk. One process holds the data folder (server.lock), so
// `hushdrop-server uploads remove` cannot change the store beside it: it asks the server instead, over a
// Unix socket in the data folder (`admin.sock`, reachable only by the folder's owner and root; never on the
// network) with a token the server draws at start and keeps in `admin.json` (readable by its user only).
//
//   DELETE /_hushdrop/admin/uploads/<name>   Authorization: Bearer <token>
//     → 200 {"removed": name, "size", "createdAt"} | 404 (no such upload) | 401 (wrong token)

import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { randomText } from '../lib/crypto/text';
import { sameSecret } from './http/secret';
import { isUploadName } from './uploads/record';
import type { Uploads } from './uploads/uploads';

export const ADMIN_SOCKET = 'admin.sock';
export const ADMIN_FILE = 'admin.json';
const REMOVE = /^\/_hushdrop\/admin\/uploads\/([^/?#]+)$/;

interface AdminFile {
  pid: number;
  token: string;
}

export interface AdminEndpoint {
  close(): Promise<void>;
}

/** Listens on `<dataDir>/admin.sock` (the data folder is this process's: it holds the lock). */
export async function startAdmin(dataDir: string, uploads: Uploads): Promise<AdminEndpoint> {
  const token = randomText(40);
  const socketPath = join(dataDir, ADMIN_SOCKET);
  const server = createServer((req, res) => {
    req.resume();
    const answer = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (!auth || !sameSecret(auth[1]!, token)) return answer(401, { error: 'The admin token is wrong.' });
    const match = REMOVE.exec(req.url ?? '');
    let name = '';
    try {
      name = match ? decodeURIComponent(match[1]!) : '';
    } catch {}
    if (req.method !== 'DELETE' || !isUploadName(name)) return answer(404, { error: 'No such admin route.' });
    uploads.takeDown(name).then(
      (removed) =>
        removed
          ? answer(200, { removed: name, size: removed.contentLength, createdAt: removed.createdAt })
          : answer(404, { error: 'No such upload.' }),
      (err: unknown) => answer(503, { error: (err as Error).message }),
    );
  });
  // A socket left by a server that died: this process holds the folder's lock, so it is no one's.
  await rm(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  const file = join(dataDir, ADMIN_FILE);
  const temp = `${file}.${process.pid}.new`;
  await writeFile(temp, JSON.stringify({ pid: process.pid, token } satisfies AdminFile), { mode: 0o600 });
  await rename(temp, file);
  return {
    async close() {
      await rm(file, { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

export interface RemovedThroughServer {
  pid: number;
  /** What was removed, or null when there was no such upload. */
  removed: { size: number; createdAt: number } | null;
}

/** Asks the server running on `dataDir` to take `name` down. */
export async function removeThroughServer(dataDir: string, name: string): Promise<RemovedThroughServer> {
  let admin: AdminFile;
  try {
    admin = JSON.parse(await readFile(join(dataDir, ADMIN_FILE), 'utf8'));
  } catch (err) {
    throw new Error(
      `The server using ${dataDir} has no admin file (${join(dataDir, ADMIN_FILE)}: ${(err as Error).message}); ` +
        'run this as the server’s user, or stop the server and try again.',
    );
  }
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        socketPath: join(dataDir, ADMIN_SOCKET),
        method: 'DELETE',
        path: `/_hushdrop/admin/uploads/${encodeURIComponent(name)}`,
        headers: { Authorization: `Bearer ${admin.token}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (err) =>
      reject(
        new Error(
          `The running server (process ${admin.pid}) did not answer on ${join(dataDir, ADMIN_SOCKET)}: ${err.message}`,
        ),
      ),
    );
    req.end();
  });
  if (status === 200) {
    const { size, createdAt } = JSON.parse(body) as { size: number; createdAt: number };
    return { pid: admin.pid, removed: { size, createdAt } };
  }
  if (status === 404) return { pid: admin.pid, removed: null };
  let message = body;
  try {
    message = JSON.parse(body).error;
  } catch {}
  throw new Error(`The running server (process ${admin.pid}) refused: ${message}`);
}
