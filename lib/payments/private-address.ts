// Which payment addresses point into this machine or its local network. The extension's host
// permissions grant loopback (for the bundled server), and a request from an extension page gets
// past Local Network Access and fetch-metadata checks, so a payment request naming such an address
// could make Hushdrop POST to local services. The payment page contacts one only after the person
// allowed that origin. Works on what `URL` makes of a host: IPv4 in any spelling ("0x7f.1",
// "2130706433") comes out dotted, IPv6 comes out bracketed and compressed.

/** IPv4 ranges as [first octet, second-octet low, second-octet high] (inclusive). */
const PRIVATE_V4: readonly (readonly [number, number, number])[] = [
  [0, 0, 255], // 0.0.0.0/8: "this host"; 0.0.0.0 reaches local services on Linux and macOS
  [10, 0, 255], // 10/8
  [100, 64, 127], // 100.64/10: carrier-grade NAT, a provider's shared network
  [127, 0, 255], // 127/8 loopback
  [169, 254, 254], // 169.254/16 link-local
  [172, 16, 31], // 172.16/12
  [192, 168, 168], // 192.168/16
];

function ipv4Octets(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

function isPrivateV4(octets: number[]): boolean {
  const [a, b] = octets as [number, number];
  return PRIVATE_V4.some(([first, low, high]) => a === first && b >= low && b <= high);
}

/** The eight 16-bit groups of an IPv6 address (no brackets), or undefined when it is none. */
function ipv6Groups(host: string): number[] | undefined {
  let text = host;
  // A dotted IPv4 tail (URL normally rewrites it to hex, but be lenient).
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Octets(dotted[2]!);
    if (!v4) return undefined;
    text = `${dotted[1]}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups.map((g) => Number.parseInt(g, 16));
}

function isPrivateV6(groups: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroHead && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return true; // :: and ::1
  // IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible form (::a.b.c.d): judge the IPv4.
  const v4 = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  if (zeroHead && (g5 === 0xffff || g5 === 0)) return isPrivateV4(v4);
  // 64:ff9b::/96, NAT64's well-known prefix: a gateway turns it into the IPv4 in its last 32 bits.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPrivateV4(v4);
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  return false;
}

/**
 * Whether a host (as `URL.hostname` gives it: lower case, IPv6 in brackets) is this machine or a
 * private or link-local network: loopback, 0.0.0.0/8, 10/8, 100.64/10, 172.16/12, 192.168/16,
 * 169.254/16, ::, ::1, fc00::/7, fe80::/10, IPv4-mapped and NAT64 (64:ff9b::/96) forms of those,
 * `localhost` and `*.localhost`.
 * A DNS name is judged by its text only: the page cannot resolve names, see the README.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = ipv6Groups(host.slice(1, -1).replace(/%.*$/, ''));
    // Brackets hold an IPv6 literal; one we cannot read is treated as private (refuse, not guess).
    return groups ? isPrivateV6(groups) : true;
  }
  const v4 = ipv4Octets(host);
  return v4 ? isPrivateV4(v4) : false;
}

/** Whether a URL's host is private (see isPrivateHost); an unreadable URL counts as private. */
export function isPrivateUrl(url: string | URL): boolean {
  try {
    return isPrivateHost((typeof url === 'string' ? new URL(url) : url).hostname);
  } catch {
    return true;
  }
}
