// Who is asking, and at which public address: the peer's address, or what a configured reverse proxy
// says in X-Forwarded-For / -Proto / -Host. Those headers are read only when the peer is such a proxy;
// from anyone else they are ignored, so a client cannot choose its own address or the links it is given.

import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

export class ProxyListError extends Error {
  override readonly name = 'ProxyListError';
}

/** `1.2.3.4` for `::ffff:1.2.3.4`; other addresses as they are. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`) as a BlockList. */
export function proxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.trim().split('/');
    const family = isIP(address ?? '');
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (
      !family ||
      extra !== undefined ||
      (bits !== undefined &&
        !(Number.isInteger(bits) && bits >= 0 && bits <= maxBits && /^\d+$/.test(prefix!)))
    )
      throw new ProxyListError(
        `"${entry}" is not an IP address or CIDR range (like 127.0.0.1 or 10.0.0.0/8).`,
      );
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, bits, type);
  }
  return list;
}

function isTrusted(list: BlockList | null, address: string): boolean {
  const family = isIP(address);
  return list !== null && family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

function fromProxy(req: IncomingMessage, proxies: BlockList | null): boolean {
  return isTrusted(proxies, plainAddress(req.socket.remoteAddress ?? ''));
}

/** The client's address: the peer's, or, behind trusted proxies, the nearest untrusted X-Forwarded-For hop. */
export function clientAddress(req: IncomingMessage, proxies: BlockList | null): string {
  const peer = plainAddress(req.socket.remoteAddress ?? '');
  if (!isTrusted(proxies, peer)) return peer || 'unknown';
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => plainAddress(hop.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) break;
    if (!isTrusted(proxies, hop)) return hop;
  }
  return peer;
}

/** The key rate limits count an address under: IPv6 by its /64 (one host usually holds a whole /64). */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/**
 * The origin the client used, as a trusted proxy reports it (`X-Forwarded-Proto` and `-Host`), or null
 * when the request did not come through one or the headers are missing or malformed.
 */
export function forwardedOrigin(req: IncomingMessage, proxies: BlockList | null): string | null {
  if (!fromProxy(req, proxies)) return null;
  const first = (name: string) => {
    const value = req.headers[name];
    return (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
  };
  const proto = first('x-forwarded-proto')?.toLowerCase();
  const host = first('x-forwarded-host');
  if ((proto !== 'http' && proto !== 'https') || !host || !HOST.test(host)) return null;
  return `${proto}://${host}`;
}
