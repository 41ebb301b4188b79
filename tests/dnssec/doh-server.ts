// A small DNS-over-HTTPS server (RFC 8484: GET ?dns= and POST, application/dns-message) that answers
// from records signed at test time (zones.ts), as a recursive resolver would pass them on: the
// records at the name asked with their RRSIGs (DNSSEC OK), following CNAMEs, NXDOMAIN for a name
// it holds nothing at. It sets the AD bit on every answer, even when `tamper` changed a signature:
// Hushdrop must judge the records itself and never believe that bit.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FLAG, messageWire, RCODE, readMessage } from '../../lib/payments/dnssec/message';
import { readTarget } from '../../lib/payments/dnssec/records';
import { nameText, type ResourceRecord, readRecords } from '../../lib/payments/dnssec/wire';
import { type Rec, recordWire, T } from './zones';

export interface DohServer {
  /** The resolver's address, for the options: `http://<host>:<port>/dns-query`. */
  url: string;
  origin: string;
  /** Every question asked, as `<name> <type>`, in order. */
  asked: string[];
  /** Replaces the records answered from (a new tree, or one with a changed byte). */
  setRecords(records: Rec[]): void;
  close(): Promise<void>;
}

const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

function toLib(records: Rec[]): ResourceRecord[] {
  return readRecords(Buffer.concat(records.map(recordWire)));
}

export async function startDohServer(records: Rec[], options: { host?: string } = {}): Promise<DohServer> {
  let all = toLib(records);
  const asked: string[] = [];

  function answer(query: Uint8Array): Uint8Array {
    const message = readMessage(query);
    const question = message.questions[0]!;
    asked.push(`${nameText(question.name)} ${question.type}`);
    const answers: ResourceRecord[] = [];
    let name = key(nameText(question.name));
    let exists = false;
    for (let step = 0; step < 8; step++) {
      const at = all.filter((rr) => key(nameText(rr.owner)) === name);
      if (at.length > 0) exists = true;
      const covers = (rr: ResourceRecord, type: number) =>
        rr.type === type || (rr.type === T.RRSIG && ((rr.rdata[0]! << 8) | rr.rdata[1]!) === type);
      const direct = at.filter((rr) => covers(rr, question.type));
      if (direct.length > 0 || question.type === T.CNAME) {
        answers.push(...direct);
        break;
      }
      const cname = at.filter((rr) => covers(rr, T.CNAME));
      if (cname.length === 0) break;
      answers.push(...cname);
      const target = cname.find((rr) => rr.type === T.CNAME)!;
      name = key(nameText(readTarget(target.rdata)));
    }
    return messageWire({
      id: message.id,
      flags:
        FLAG.QR |
        FLAG.RD |
        FLAG.RA |
        FLAG.AD |
        (message.flags & FLAG.CD) |
        (exists ? RCODE.NOERROR : RCODE.NXDOMAIN),
      questions: message.questions,
      answers,
      authority: [],
      additional: message.additional,
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    let query: Uint8Array | undefined;
    if (req.method === 'GET' && url.pathname === '/dns-query') {
      const dns = url.searchParams.get('dns');
      if (dns) query = Buffer.from(dns, 'base64url');
    } else if (req.method === 'POST' && url.pathname === '/dns-query') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      query = Buffer.concat(chunks);
    }
    if (!query) {
      res.writeHead(404).end();
      return;
    }
    let body: Uint8Array;
    try {
      body = answer(query);
    } catch {
      res.writeHead(400).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/dns-message', 'content-length': body.length });
    res.end(body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    url: `${origin}/dns-query`,
    origin,
    asked,
    setRecords(records) {
      all = toLib(records);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
