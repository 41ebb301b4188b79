// A server that sends more than a file is: for the viewer's cap on what it writes (issue 17,
// finding 2). `/announced.bin` announces and sends `size` bytes; `/endless.bin` announces no
// length and sends until the client hangs up, so only the viewer's own cap can stop it.
import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OversizedServer {
  origin: string;
  /** How many clients have hung up on `/endless.bin` so far. */
  hangUps(): number;
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;

/** Writes chunks as fast as the client takes them, until it goes away. */
function sendForever(res: ServerResponse, onClose: () => void): void {
  res.on('close', onClose);
  const more = () => {
    while (!res.destroyed) if (!res.write(randomBytes(CHUNK))) return res.once('drain', more);
  };
  more();
}

export async function startOversized(size: number, host: string): Promise<OversizedServer> {
  let hangUps = 0;
  const server = createServer((req, res) => {
    if (req.url === '/announced.bin') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': size });
      res.end(randomBytes(size));
    } else if (req.url === '/endless.bin') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      sendForever(res, () => hangUps++);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    origin: `http://${host}:${(server.address() as AddressInfo).port}`,
    hangUps: () => hangUps,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
