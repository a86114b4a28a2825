import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// Slow clients (issue 31 item 9): 400 connections that sent half a request line were all held for
// 45 s. Two limits, both on the listening server:
// - time: a request's headers must arrive within headersTimeout and the whole request (body
//   included) within requestTimeout (Node's own timers, checked every connectionsCheckingInterval;
//   httpServerOptions below). They measure receiving the request only, so an answer that streams
//   for hours — the live stream, an MCP stream — is not cut by them.
// - count: one client address may hold at most `perClient` connections; past it a new connection
//   is closed at once, before it can send anything. A connection carrying a long-lived stream (the
//   live stream, the MCP proxy) leaves the count while the stream lasts — an agent host with many
//   sessions is not a slow client — and comes back into it when the stream ends. Peers that are
//   trusted proxies are not counted (every client arrives through them; they limit their own).
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  perClient: number;
}

const LONG_LIVED = [/^\/mcp\//, /^\/api\/v1\/workspaces\/[^/?]+\/platform\/sse(?:\?|$)/];

export function isLongLivedStream(url: string | undefined): boolean {
  return LONG_LIVED.some((pattern) => pattern.test(url ?? ''));
}

/** Options for http.createServer (Fastify's `http`); requestTimeout is Fastify's own option. */
export function httpServerOptions(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // How often Node looks for requests past their timeouts (its default, 30 s, would let a
    // 10 s limit hold a connection for 40 s).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

export interface ConnectionCap {
  /** Connections closed at once because their address held too many. */
  refused(): number;
  /** Connections counted now for an address. */
  openFrom(address: string): number;
}

export function capConnectionsPerClient(
  server: Server,
  perClient: number,
  isTrustedPeer: (address: string) => boolean,
): ConnectionCap {
  const open = new Map<string, number>();
  const counted = new WeakMap<Socket, { address: string; counting: boolean }>();
  let refused = 0;
  const add = (address: string, delta: number) => {
    const next = (open.get(address) ?? 0) + delta;
    if (next <= 0) open.delete(address);
    else open.set(address, next);
    return next;
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (isTrustedPeer(address)) return;
    if ((open.get(address) ?? 0) >= perClient) {
      refused += 1;
      socket.destroy();
      return;
    }
    add(address, 1);
    const entry = { address, counting: true };
    counted.set(socket, entry);
    socket.once('close', () => {
      if (entry.counting) add(address, -1);
      entry.counting = false;
    });
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const entry = counted.get(request.socket);
    if (!entry?.counting || !isLongLivedStream(request.url)) return;
    entry.counting = false;
    add(entry.address, -1);
    response.once('close', () => {
      if (request.socket.destroyed) return;
      // Back into the count for whatever the connection does next (an idle keep-alive included).
      entry.counting = true;
      if (add(entry.address, 1) > perClient) request.socket.destroy();
    });
  });

  return { refused: () => refused, openFrom: (address) => open.get(address) ?? 0 };
}
