import net from 'node:net';

// Which peers may tell Toolscope who the client is (X-Forwarded-For/Host/Proto). The client
// address is the right-most X-Forwarded-For entry that was not added by a trusted hop: a client
// may put anything at the left of the header, only what the operator's own proxies appended counts.
//
// - none (unset, false): the socket's address is the client; X-Forwarded-* are ignored.
// - a hop count (`1`, `true` = 1): that many proxies stand in front, whoever they are; Toolscope
//   must then be reachable only through them (otherwise a direct client is believed as a proxy).
// - addresses/CIDRs (`10.0.0.5, 172.16.0.0/12`, and proxy-addr's names `loopback`, `linklocal`,
//   `uniquelocal`): only peers in them are proxies; hops are peeled while they are trusted.
export type TrustedProxies = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; list: string[] };

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const value = (text ?? '').trim();
  if (['', 'false', '0', 'no', 'off'].includes(value.toLowerCase())) return { kind: 'none' };
  if (['true', 'yes', 'on'].includes(value.toLowerCase())) return { kind: 'hops', hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 20) throw new Error('a hop count must be between 0 and 20');
    return { kind: 'hops', hops };
  }
  const list = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of list) {
    if (!isAddressOrRange(entry))
      throw new Error(`"${entry}" is not a hop count, an IP address, a CIDR range or loopback/linklocal/uniquelocal`);
  }
  return { kind: 'addresses', list };
}

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const range = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(entry);
  if (!range) return false;
  const family = net.isIP(range[1]);
  if (family === 0) return false;
  const prefix = range.at(2);
  return prefix === undefined || Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Fastify's `trustProxy` option for the setting. A hop count is given as a function: Fastify 5.12
 * reads a bare number as "trust nothing" (it cannot check the peer), while the operator who names
 * a hop count states that the peer is their proxy. Index 0 is the socket's peer, 1 the right-most
 * X-Forwarded-For entry, and so on.
 */
export function fastifyTrustProxy(
  trusted: TrustedProxies,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (trusted.kind === 'none') return false;
  if (trusted.kind === 'addresses') return trusted.list;
  const { hops } = trusted;
  if (hops === 0) return false;
  return (_address, hop) => hop < hops;
}

const NAMED_RANGE_LISTS: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Whether a socket's peer is one of the operator's proxies (with a hop count: every peer is). The
 * same list Fastify peels X-Forwarded-For with, matched with Node's BlockList.
 */
export function trustedPeer(trusted: TrustedProxies): (address: string) => boolean {
  if (trusted.kind === 'none') return () => false;
  if (trusted.kind === 'hops') return () => trusted.hops > 0;
  const list = new net.BlockList();
  for (const entry of trusted.list.flatMap((e) => NAMED_RANGE_LISTS[e] ?? [e])) {
    const [address, prefix] = entry.split('/');
    const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix) list.addSubnet(address, Number(prefix), family);
    else list.addAddress(address, family);
  }
  return (address) => {
    const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    const family = net.isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}
