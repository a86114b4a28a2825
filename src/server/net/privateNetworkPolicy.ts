import net from 'node:net';
import os from 'node:os';
import { classifyAddress, normalizeHostname } from './addressPolicy';

// Which private upstreams (loopback, LAN, unique-local) Toolscope may reach — docs/security.md,
// "Private networks". Local MCP servers are a main use case, but a Toolscope others can reach must
// not become their relay into the host's loopback and LAN. So:
// - listening on loopback only (HOST 127.0.0.1, the default): every private upstream is allowed —
//   whoever can use this Toolscope is already on this machine;
// - listening on other interfaces: private upstreams are refused unless the operator names them
//   (TOOLSCOPE_PRIVATE_UPSTREAMS: CIDR ranges, addresses or host names — any port — or
//   `address:port` / `host:port` / `[v6]:port` for one port only), or allows all of them
//   (TOOLSCOPE_ALLOW_PRIVATE_UPSTREAMS=true); TOOLSCOPE_ALLOW_PRIVATE_UPSTREAMS=false refuses them
//   even on loopback;
// - Toolscope's own listening address (any local address at its own port) is refused always: its
//   proxy must never call its own API.
export interface PrivateUpstreamAllowList {
  ranges: net.BlockList;
  hosts: Set<string>;
  /** `address:port` and `host:port` entries: that port only (an internal MCP server, not its whole host). */
  endpoints: Set<string>;
}

export function isLoopbackHost(host: string): boolean {
  const bare = normalizeHostname(host);
  if (bare === 'localhost') return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  return bare === '::1';
}

/** Parses "10.0.0.0/8, 192.168.1.5, fd00::/8, mcp.internal" (blank entries ignored). Throws on a bad entry. */
export function parsePrivateUpstreamAllowList(text: string | undefined): PrivateUpstreamAllowList {
  const list: PrivateUpstreamAllowList = { ranges: new net.BlockList(), hosts: new Set(), endpoints: new Set() };
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const withPort = /^\[([0-9a-f:.]+)\]:(\d{1,5})$/i.exec(entry) ?? /^([^:/[\]]+):(\d{1,5})$/.exec(entry);
    if (withPort) {
      const port = Number(withPort[2]);
      const bare = normalizeHostname(withPort[1]);
      if (port < 1 || port > 65535 || (net.isIP(bare) === 0 && !/^[a-z0-9.-]+$/i.test(bare)))
        throw new Error(`not an address:port or host:port: ${entry}`);
      list.endpoints.add(`${net.isIP(bare) ? plainAddress(bare) : bare}:${port}`);
      continue;
    }
    const parts = entry.split('/');
    const address = parts[0];
    const bitsText = parts.at(1);
    const bare = normalizeHostname(address);
    const family = net.isIP(bare);
    if (family === 0) {
      if (bitsText !== undefined || !/^[a-z0-9.-]+$/i.test(bare))
        throw new Error(`not a range, address or host name: ${entry}`);
      list.hosts.add(bare);
      continue;
    }
    const max = family === 4 ? 32 : 128;
    const bits = bitsText === undefined ? max : Number(bitsText);
    if (!Number.isInteger(bits) || bits < 0 || bits > max) throw new Error(`bad prefix length: ${entry}`);
    list.ranges.addSubnet(bare, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

/** The address without brackets or zone; IPv4-mapped IPv6 as its IPv4 address. */
function plainAddress(address: string): string {
  const bare = address
    .replace(/^\[|\]$/g, '')
    .split('%')[0]
    .toLowerCase();
  if (bare.startsWith('::ffff:') && net.isIPv4(bare.slice(7))) return bare.slice(7);
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  const hex = bare.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return bare;
}

/**
 * Whether the allow-list admits the address (or the name it came from) at `port`. Without a port
 * (a DNS answer, before the connection names one) a port-bound entry admits it too: the connected
 * socket is checked again with its port (outboundClient.ts).
 */
export function isListed(list: PrivateUpstreamAllowList, address: string, hostname?: string, port?: number): boolean {
  const name = hostname ? normalizeHostname(hostname) : undefined;
  if (name && list.hosts.has(name)) return true;
  const bare = plainAddress(address);
  const family = net.isIP(bare);
  if (family !== 0 && list.ranges.check(bare, family === 4 ? 'ipv4' : 'ipv6')) return true;
  if (list.endpoints.size === 0) return false;
  if (port !== undefined)
    return list.endpoints.has(`${bare}:${port}`) || (!!name && list.endpoints.has(`${name}:${port}`));
  for (const endpoint of list.endpoints) {
    const host = endpoint.slice(0, endpoint.lastIndexOf(':'));
    if (host === bare || host === name) return true;
  }
  return false;
}

/**
 * Whether an address (resolved from `hostname`) may be dialled: public addresses yes, metadata and
 * link-local never, private ones per the policy above.
 */
export function mayConnect(
  address: string,
  allowPrivate: boolean,
  allowList: PrivateUpstreamAllowList | undefined,
  hostname?: string,
  port?: number,
): boolean {
  const verdict = classifyAddress(address);
  if (verdict === 'allowed') return true;
  if (verdict === 'forbidden') return false;
  return allowPrivate || (allowList !== undefined && isListed(allowList, address, hostname, port));
}

/** Every address of this machine (loopback included), normalised; what "our own address" can be. */
export function localAddresses(): Set<string> {
  const out = new Set<string>(['127.0.0.1', '::1', '0.0.0.0', '::']);
  for (const list of Object.values(os.networkInterfaces()))
    for (const entry of list ?? []) out.add(entry.address.split('%')[0].toLowerCase());
  return out;
}

/** True when address:port is this Toolscope's own listener (any local address, or 127/8, at its port). */
export function isOwnEndpoint(
  address: string,
  port: number,
  ownPorts: readonly number[],
  locals: Set<string>,
): boolean {
  if (!ownPorts.includes(port)) return false;
  const bare = plainAddress(address);
  return locals.has(bare) || (net.isIPv4(bare) && bare.startsWith('127.'));
}
