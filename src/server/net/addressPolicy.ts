import net from 'node:net';

// Which addresses an outbound call may reach. Cloud metadata endpoints and link-local ranges are
// never reachable (they hand out cloud credentials); loopback and private ranges are allowed by
// default (people run tool servers on laptops and LANs) unless the operator turns them off.
export type AddressVerdict = 'allowed' | 'private' | 'forbidden';

/** Host names that are metadata services whatever they resolve to (compared without trailing dots). */
const FORBIDDEN_HOSTNAMES = new Set([
  'metadata.google.internal',
  'metadata',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

function ipv4ToInt(address: string): number {
  const parts = address.split('.').map(Number);
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

function inV4(address: number, base: string, bits: number): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === (ipv4ToInt(base) & mask) >>> 0;
}

export const V4_FORBIDDEN: [string, number][] = [
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 (AWS, GCP, Azure, OpenStack metadata)
  ['100.100.100.200', 32], // Alibaba Cloud metadata
  ['168.63.129.16', 32], // Azure wire server
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
];
export const V4_PRIVATE: [string, number][] = [
  ['0.0.0.0', 8], // "this host": connecting to 0.0.0.0 reaches loopback
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['198.18.0.0', 15], // benchmarking
  ['192.0.0.0', 24],
];

function classifyV4(address: string): AddressVerdict {
  const value = ipv4ToInt(address);
  if (V4_FORBIDDEN.some(([base, bits]) => inV4(value, base, bits))) return 'forbidden';
  if (V4_PRIVATE.some(([base, bits]) => inV4(value, base, bits))) return 'private';
  return 'allowed';
}

/** The 8 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const v = ipv4ToInt(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...(tail !== undefined ? Array<string>(missing).fill('0') : []), ...tailGroups];
  return groups.map((g) => parseInt(g || '0', 16));
}

function v4FromGroups(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

function classifyV6(address: string): AddressVerdict {
  const g = ipv6Groups(address);
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 target.
  if (zeroPrefix(5) && g[5] === 0xffff) return classifyV4(v4FromGroups(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return classifyV4(v4FromGroups(g[6], g[7]));
  if (g[0] === 0x2002) return classifyV4(v4FromGroups(g[1], g[2])); // 6to4
  if (zeroPrefix(7) && (g[7] === 0 || g[7] === 1)) return 'private'; // :: and ::1
  if (zeroPrefix(6)) return classifyV4(v4FromGroups(g[6], g[7]));
  if ((g[0] & 0xffc0) === 0xfe80) return 'forbidden'; // fe80::/10 link-local
  if (g[0] === 0xfd00 && g[1] === 0x0ec2) return 'forbidden'; // AWS IPv6 metadata fd00:ec2::254
  if ((g[0] & 0xff00) === 0xff00) return 'forbidden'; // multicast
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  return 'allowed';
}

/** Classifies an IP literal (v4 or v6, brackets allowed). */
export function classifyAddress(address: string): AddressVerdict {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare.split('%')[0]);
  if (family === 4) return classifyV4(bare);
  if (family === 6) return classifyV6(bare);
  return 'forbidden';
}

/** Lower-cased host name without brackets and trailing dots ("metadata.google.internal." is the same host). */
export function normalizeHostname(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '');
}

export function isForbiddenHostname(hostname: string): boolean {
  return FORBIDDEN_HOSTNAMES.has(normalizeHostname(hostname));
}

/** The verdict for an address under the operator's policy: true = may connect. */
export function isAddressAllowed(address: string, allowPrivate: boolean): boolean {
  const verdict = classifyAddress(address);
  return verdict === 'allowed' || (verdict === 'private' && allowPrivate);
}
