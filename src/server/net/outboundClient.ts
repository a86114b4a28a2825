import dns from 'node:dns';
import net from 'node:net';
import { Readable, Transform } from 'node:stream';
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { ExchangeAbort } from './exchangeAbort';
import type { Config } from '../config';
import { isForbiddenHostname, normalizeHostname } from './addressPolicy';
import { addressMessage, blocked, guardedConnector, OWN_ADDRESS_MESSAGE } from './guardedConnector';

export { OutboundBlockedError, OWN_ADDRESS_MESSAGE } from './guardedConnector';

export const BRIDGE_MESSAGE = "Toolscope's deployment bridge is not allowed as a destination";
import { isOwnEndpoint, localAddresses, mayConnect, type PrivateUpstreamAllowList } from './privateNetworkPolicy';

// The one way the server reaches out (proxy, health checks, schema discovery). Every connection
// is checked at connect time against the resolved address — the address checked is the address
// dialled, so DNS rebinding cannot slip past — and every redirect is checked again.

export class ResponseTooLargeError extends Error {
  readonly code = 'response_too_large';
}

export interface OutboundRequestOptions {
  method?: string;
  headers?: Record<string, string | string[] | undefined>;
  body?: string | Buffer | Uint8Array | Readable | null;
  /** Stops the request: an AbortSignal, or an ExchangeAbort (exchangeAbort.ts) on the proxy's path. */
  signal?: AbortSignal | ExchangeAbort;
  /** The body stream errors with ResponseTooLargeError past this many bytes. */
  maxResponseBytes?: number;
  /** Time to the response headers (default config.upstreamTimeoutMs). */
  headersTimeoutMs?: number;
  /** Longest silence between body chunks; 0 = none (long-lived SSE streams). */
  bodyTimeoutMs?: number;
  /** A long-lived stream (an MCP GET stream): it goes over a pool of its own (see below). */
  longLived?: boolean;
}

export interface OutboundResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface OutboundClient {
  request(url: string | URL, options?: OutboundRequestOptions): Promise<OutboundResponse>;
  /** WHATWG fetch over the guarded pool; follows up to 5 redirects, each one checked. */
  fetch: FetchLike;
  /** Throws OutboundBlockedError (with a message a user can act on) when the URL may not be called. */
  assertUrlAllowed(url: string | URL): Promise<void>;
  /**
   * Allows one listener of Toolscope's own making whatever the private-network policy says: the
   * deployments' stdio bridge (an IP literal and port, e.g. 127.0.0.1:41234), which the proxy must
   * reach even where private upstreams are refused. One address and port, not a range.
   */
  allowInternalEndpoint(address: string, port: number): void;
  readonly dispatcher: Dispatcher;
  close(): Promise<void>;
}

const MAX_REDIRECTS = 5;
const CLOSE_GRACE_MS = 1_000;

function urlPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

export interface OutboundClientOptions {
  /** The ports Toolscope itself listens on (read at each check: known only after listen()). */
  ownPorts?: () => number[];
}

export function createOutboundClient(
  config: Pick<Config, 'allowPrivateUpstreams' | 'upstreamTimeoutMs'> & {
    privateUpstreamAllowList?: PrivateUpstreamAllowList;
  },
  options: OutboundClientOptions = {},
): OutboundClient {
  const allowPrivate = config.allowPrivateUpstreams;
  const allowList = config.privateUpstreamAllowList;
  const allowed = (address: string, hostname?: string, port?: number) =>
    mayConnect(address, allowPrivate, allowList, hostname, port);
  const locals = localAddresses();
  const ownPorts = () => options.ownPorts?.() ?? [];
  const isOwn = (address: string, port: number) => isOwnEndpoint(address, port, ownPorts(), locals);
  const internal = new Set<string>();
  const isInternal = (address: string, port: number) => internal.has(`${normalizeHostname(address)}:${port}`);
  // The deployments' bridge ports: Toolscope's own connections reach them, a URL a user gives never
  // does (any local address at such a port, like Toolscope's own listener).
  const bridgePorts: number[] = [];
  const isBridge = (address: string, port: number) =>
    isInternal(address, port) || isOwnEndpoint(address, port, bridgePorts, locals);

  /** Static checks that need no DNS: scheme, forbidden names, IP literals. */
  function checkUrlShape(url: URL): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw blocked('Only http and https URLs are allowed');
    if (url.username || url.password) throw blocked('Credentials in the URL are not allowed; store them as headers');
    const host = normalizeHostname(url.hostname);
    if (!host) throw blocked('The URL has no host');
    if (isForbiddenHostname(host)) throw blocked('Cloud metadata addresses are not allowed');
    if (net.isIP(host) && isInternal(host, urlPort(url))) return;
    if (net.isIP(host) && !allowed(host, undefined, urlPort(url))) throw blocked(addressMessage(host, allowPrivate));
    if (net.isIP(host) && isOwn(host, urlPort(url))) throw blocked(OWN_ADDRESS_MESSAGE);
  }

  const connector = guardedConnector(
    { allowPrivate, allowed, isOwn, isInternal },
    Math.min(config.upstreamTimeoutMs, 10_000),
  );

  // No cap on connections per origin: a cap shared by every tenant of an origin is what let one
  // tenant's hanging calls (or ~256 open streams) hold everyone else's requests in undici's queue.
  // What bounds the connections instead is the proxy's own admission: calls in flight per
  // workspace and per server, streams per session (proxy/admission.ts, proxy/streamLimits.ts).
  const agent = new Agent({
    connect: connector,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    pipelining: 1,
  });
  // Long-lived streams hold their connection for hours: they get a pool of their own, so the
  // connections requests reuse are never the ones parked under a quiet stream.
  const streamAgent = new Agent({
    connect: connector,
    keepAliveTimeout: 4_000,
    pipelining: 1,
  });

  async function assertUrlAllowed(input: string | URL): Promise<void> {
    let url: URL;
    try {
      url = new URL(String(input));
    } catch {
      throw blocked('The URL is not valid');
    }
    const host = normalizeHostname(url.hostname);
    if (net.isIP(host) && isBridge(host, urlPort(url))) throw blocked(BRIDGE_MESSAGE);
    checkUrlShape(url);
    if (net.isIP(host)) return;
    let addresses: dns.LookupAddress[];
    try {
      addresses = await dns.promises.lookup(host, { all: true });
    } catch {
      throw blocked(`The host ${host} could not be resolved`);
    }
    if (addresses.some((a) => isBridge(a.address, urlPort(url)))) throw blocked(BRIDGE_MESSAGE);
    const refused = addresses.find((a) => !allowed(a.address, host, urlPort(url)));
    if (refused) throw blocked(addressMessage(refused.address, allowPrivate));
    if (addresses.some((a) => isOwn(a.address, urlPort(url)))) throw blocked(OWN_ADDRESS_MESSAGE);
  }

  // The proxy calls the same few upstream URLs again and again: each URL is parsed and its shape
  // checked once, and the verdict kept while the inputs of the check stay the same (Toolscope's own
  // ports are known only after listen(); an internal endpoint may be allowed later). A refused URL
  // is not kept: it throws every time. DNS answers are checked per connection (guardedLookup).
  const checkedUrls = new Map<string, { origin: string; path: string }>();
  // The inputs the kept verdicts were made with: compared, not joined into a string on every call.
  let checkedPorts: readonly number[] = [];
  let checkedInternal = -1;
  function checkedTarget(input: string | URL): { origin: string; path: string } {
    const key = String(input);
    const ports = ownPorts();
    if (internal.size !== checkedInternal || !samePorts(ports, checkedPorts)) {
      checkedUrls.clear();
      checkedPorts = [...ports];
      checkedInternal = internal.size;
    }
    let target = checkedUrls.get(key);
    if (!target) {
      const url = new URL(key);
      checkUrlShape(url);
      target = { origin: url.origin, path: `${url.pathname}${url.search}` };
      if (checkedUrls.size >= 10_000) checkedUrls.clear();
      checkedUrls.set(key, target);
    }
    return target;
  }

  async function request(input: string | URL, options: OutboundRequestOptions = {}): Promise<OutboundResponse> {
    const { origin, path } = checkedTarget(input);
    const response = await (options.longLived ? streamAgent : agent).request({
      origin,
      path,
      method: options.method ?? 'GET',
      headers: options.headers as Record<string, string>,
      body: options.body ?? null,
      signal: options.signal,
      headersTimeout: options.headersTimeoutMs ?? config.upstreamTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs ?? config.upstreamTimeoutMs,
    });
    const limit = options.maxResponseBytes;
    // Undici's answer is an OutboundResponse already: not copied into one more object per call.
    if (limit === undefined) return response;
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      response.body.on('error', () => undefined).destroy();
      throw new ResponseTooLargeError(`The response is larger than ${limit} bytes`);
    }
    const body: Readable = response.body.pipe(byteLimit(limit));
    response.body.on('error', (error) => body.destroy(error));
    return { statusCode: response.statusCode, headers: response.headers, body };
  }

  const guardedFetch: FetchLike = async (input, init = {}) => {
    let url = new URL(String(input instanceof Request ? input.url : input));
    let currentInit: RequestInit = { ...init };
    for (let hop = 0; ; hop++) {
      checkUrlShape(url);
      const response = (await undiciFetch(url, {
        ...(currentInit as Parameters<typeof undiciFetch>[1]),
        redirect: 'manual',
        dispatcher: agent,
      })) as unknown as Response;
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location || init.redirect === 'manual') return response;
      if (init.redirect === 'error') throw new TypeError('Redirect not allowed');
      if (hop >= MAX_REDIRECTS) throw blocked('Too many redirects');
      await response.body?.cancel().catch(() => undefined);
      url = new URL(location, url);
      await assertUrlAllowed(url);
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && currentInit.method === 'POST')
      ) {
        currentInit = { ...currentInit, method: 'GET', body: undefined };
      }
    }
  };

  return {
    request,
    fetch: guardedFetch,
    assertUrlAllowed,
    allowInternalEndpoint: (address: string, port: number) => {
      internal.add(`${normalizeHostname(address)}:${port}`);
      if (!bridgePorts.includes(port)) bridgePorts.push(port);
    },
    dispatcher: agent,
    close: async () => {
      // Streams have no end of their own: cut at once (the proxy's preClose already ended the agents' side).
      if (!streamAgent.closed && !streamAgent.destroyed) await streamAgent.destroy();
      if (agent.closed || agent.destroyed) return;
      // Requests still running at shutdown are background work (probes, discovery): give them a
      // moment, then cut them rather than hold the shutdown up to an upstream timeout.
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'timeout'>(
        (resolve) => (timer = setTimeout(() => resolve('timeout'), CLOSE_GRACE_MS)),
      );
      const outcome = await Promise.race([agent.close().then(() => 'closed' as const), graceOver]);
      clearTimeout(timer);
      if (outcome === 'timeout') await agent.destroy();
    },
  };
}

function samePorts(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A pass-through that fails once more than `limit` bytes went through. */
export function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) {
        callback(new ResponseTooLargeError(`The response is larger than ${limit} bytes`));
        return;
      }
      callback(null, chunk);
    },
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The guarded outbound client (proxy, health checks, discovery). */
    outbound: OutboundClient;
  }
}
