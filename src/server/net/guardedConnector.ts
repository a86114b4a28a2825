import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { isAddressAllowed, isForbiddenHostname, normalizeHostname } from './addressPolicy';

// Where the outbound client's connections are checked (outboundClient.ts): at DNS lookup — every
// address a name resolves to — and at connect time for IP literals (net.connect skips `lookup` for
// them), and once connected against Toolscope's own listeners, whatever name led there. The
// address checked is the address dialled, so DNS rebinding cannot slip past.

export class OutboundBlockedError extends Error {
  readonly code = 'outbound_blocked';
}

export const OWN_ADDRESS_MESSAGE = "Toolscope's own address is not allowed as an upstream";

export function blocked(message: string): OutboundBlockedError {
  return new OutboundBlockedError(message);
}

/** Why an address is refused, in words a user can act on. */
export function addressMessage(address: string, allowPrivate: boolean): string {
  return isAddressAllowed(address, true) && !allowPrivate
    ? `Private and loopback addresses are not allowed (${address})`
    : `Link-local and cloud metadata addresses are not allowed (${address})`;
}

/** The address rules a connection is held to (the private-network policy, Toolscope's own endpoints). */
export interface ConnectPolicy {
  allowPrivate: boolean;
  allowed: (address: string, hostname?: string, port?: number) => boolean;
  isOwn: (address: string, port: number) => boolean;
  /** One of Toolscope's own internal endpoints (the deployments' bridge): allowed whatever the policy. */
  isInternal: (address: string, port: number) => boolean;
}

/** undici's connector with every address checked; `timeoutMs` bounds the connect. */
export function guardedConnector(policy: ConnectPolicy, timeoutMs: number): buildConnector.connector {
  const { allowPrivate, allowed, isOwn, isInternal } = policy;
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    if (isForbiddenHostname(hostname)) {
      callback(blocked('Cloud metadata addresses are not allowed'), '', 4);
      return;
    }
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 4);
        return;
      }
      const refused = addresses.find((a) => !allowed(a.address, hostname));
      if (refused) {
        callback(blocked(addressMessage(refused.address, allowPrivate)), '', 4);
        return;
      }
      if (options.all) {
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
        return;
      }
      callback(null, addresses[0].address, addresses[0].family);
    });
  };

  const baseConnector = buildConnector({ lookup: guardedLookup, timeout: timeoutMs });
  const connector: buildConnector.connector = (options, callback) => {
    // net.connect skips `lookup` for IP literals, so literals are checked here.
    const host = normalizeHostname(options.hostname);
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    if (net.isIP(host) && !allowed(host, undefined, port) && !isInternal(host, port)) {
      callback(blocked(addressMessage(host, allowPrivate)), null);
      return;
    }
    baseConnector(options, (error, socket) => {
      // Toolscope's own listener, whatever name led there: refused before a byte is sent.
      if (
        !error &&
        socket.remoteAddress &&
        socket.remotePort !== undefined &&
        isOwn(socket.remoteAddress, socket.remotePort)
      ) {
        socket.destroy();
        callback(blocked(OWN_ADDRESS_MESSAGE), null);
        return;
      }
      // A private address allowed only at some port (`host:port` entries): checked with the port dialled.
      if (
        !error &&
        socket.remoteAddress &&
        socket.remotePort !== undefined &&
        !isInternal(socket.remoteAddress, socket.remotePort) &&
        !allowed(socket.remoteAddress, host, socket.remotePort)
      ) {
        socket.destroy();
        callback(blocked(addressMessage(socket.remoteAddress, allowPrivate)), null);
        return;
      }
      if (error) callback(error, null);
      else callback(null, socket);
    });
  };
  return connector;
}
