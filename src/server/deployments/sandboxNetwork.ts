import os from 'node:os';
import type net from 'node:net';
import { V4_FORBIDDEN, V4_PRIVATE } from '../net/addressPolicy';

// A deployment's egress (docs/deployments.md, "Network"): the sandbox's network namespace gets
// user-mode networking from slirp4netns (--disable-host-loopback: its gateway never leads to the
// host's loopback), and, before the program starts, routes in that namespace that the program —
// without capabilities — cannot change: `prohibit` for the cloud metadata and other forbidden
// ranges always, for the private ranges unless TOOLSCOPE_ALLOW_PRIVATE_UPSTREAMS allows them, and
// for every address of this host (its services listen there); the ranges and addresses of
// TOOLSCOPE_PRIVATE_UPSTREAMS are routed through. The same lists as the outbound policy of
// webhooks and upstreams (net/addressPolicy.ts). slirp4netns itself has no destination filter:
// the routes are the policy.

/** slirp4netns's fixed addresses: the gateway (the host, loopback disabled) and its DNS forwarder. */
export const SLIRP_GATEWAY = '10.0.2.2';
export const SLIRP_DNS = '10.0.2.3';

export interface EgressPolicy {
  allowPrivate: boolean;
  allowList: { ranges: net.BlockList };
}

/** The IPv4 ranges and addresses TOOLSCOPE_PRIVATE_UPSTREAMS names, as CIDRs (host names are not routable). */
export function listedRanges(list: { ranges: net.BlockList }): string[] {
  const out: string[] = [];
  for (const rule of list.ranges.rules) {
    const subnet = /^Subnet: IPv4 (\d+\.\d+\.\d+\.\d+\/\d+)$/.exec(rule);
    const address = /^Address: IPv4 (\d+\.\d+\.\d+\.\d+)$/.exec(rule);
    if (subnet) out.push(subnet[1]);
    else if (address) out.push(`${address[1]}/32`);
  }
  return out;
}

/** This host's IPv4 addresses other than 127/8 (what a program could reach the host's services on). */
export function hostAddresses(): string[] {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const entry of list ?? [])
      if (entry.family === 'IPv4' && !entry.address.startsWith('127.')) out.add(entry.address);
  return [...out];
}

/** slirp4netns's address for the namespace's end (its default). */
export const SLIRP_ADDRESS = '10.0.2.100/24';

/**
 * `ip -batch` lines that bring the namespace's tap0 up and set the policy in it. Done here rather
 * than by slirp4netns --configure, which also sets up the loopback and races bwrap doing the same.
 */
export function egressRoutes(policy: EgressPolicy, ownAddresses = hostAddresses()): string[] {
  const allowed = listedRanges(policy.allowList);
  const prohibited = [
    ...V4_FORBIDDEN.map(([base, bits]) => `${base}/${bits}`),
    ...(policy.allowPrivate ? [] : V4_PRIVATE.filter(([base]) => base !== '127.0.0.0').map(([b, n]) => `${b}/${n}`)),
    ...ownAddresses.map((address) => `${address}/32`),
  ].filter((cidr) => !allowed.includes(cidr));
  return [
    'link set tap0 up',
    `addr add ${SLIRP_ADDRESS} dev tap0`,
    `route add default via ${SLIRP_GATEWAY} dev tap0`,
    ...[...new Set(prohibited)].map((cidr) => `route add prohibit ${cidr}`),
    ...allowed.map((cidr) => `route add ${cidr} via ${SLIRP_GATEWAY}`),
  ];
}
