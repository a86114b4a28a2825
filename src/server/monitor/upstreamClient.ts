import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerTransport } from '../../contract/servers';
import { storableText } from '../db/storable';
import { NO_HTTP_ANSWER, ownRefusal, statusClassText } from '../net/outboundOutcome';

// The official SDK client, connected to one upstream for the health monitor and schema discovery.
// Every byte goes through the guarded outbound fetch (so metadata and link-local addresses are
// refused here exactly as in the proxy), and the whole exchange is bounded by one deadline: a
// hanging upstream costs a probe `timeoutMs`, never more.
export interface UpstreamTarget {
  url: string;
  transport: ServerTransport;
  /** Upstream credentials (decrypted), added to every request. */
  headers?: Record<string, string>;
}

export interface UpstreamSession {
  client: Client;
  /** Milliseconds left before the deadline (for per-request timeouts). */
  remainingMs(): number;
  close(): Promise<void>;
}

export class UpstreamTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
  }
}

export class UpstreamCancelledError extends Error {}

const CLIENT_INFO = { name: 'toolscope-monitor', version: '1.0.0' };

/**
 * Connects (initialize handshake) and runs `work` with the connected client, then always closes.
 * Rejects with UpstreamTimeoutError once `timeoutMs` has passed, aborting any request in flight.
 */
export async function withUpstreamClient<T>(
  target: UpstreamTarget,
  fetchImpl: FetchLike,
  timeoutMs: number,
  work: (session: UpstreamSession) => Promise<T>,
  /** Aborts early (the app is shutting down). */
  cancel?: AbortSignal,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const abort = new AbortController();
  const boundedFetch: FetchLike = (url, init) =>
    fetchImpl(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, abort.signal]) : abort.signal });
  const requestInit: RequestInit = target.headers ? { headers: target.headers } : {};
  const url = new URL(target.url);
  const transport =
    target.transport === 'sse'
      ? // eslint-disable-next-line @typescript-eslint/no-deprecated -- upstreams registered with transport 'sse' speak only the legacy HTTP+SSE protocol; the Streamable HTTP replacement cannot reach them
        new SSEClientTransport(url, { fetch: boundedFetch, requestInit })
      : new StreamableHTTPClientTransport(url, { fetch: boundedFetch, requestInit });
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  const remainingMs = () => Math.max(1, deadline - Date.now());
  const session: UpstreamSession = { client, remainingMs, close: () => client.close() };

  let timer: NodeJS.Timeout | undefined;
  let onCancel: (() => void) | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new UpstreamTimeoutError(timeoutMs));
    }, timeoutMs);
    onCancel = () => {
      abort.abort();
      reject(new UpstreamCancelledError('Cancelled: Toolscope is shutting down'));
    };
    if (cancel?.aborted) onCancel();
    else cancel?.addEventListener('abort', onCancel, { once: true });
  });
  try {
    return await Promise.race([
      (async () => {
        await client.connect(transport, { timeout: remainingMs() });
        return work(session);
      })(),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
    if (onCancel) cancel?.removeEventListener('abort', onCancel);
    // A probe's session is ended (DELETE), as MCP asks of a client that is done with one: health
    // checks every few seconds would otherwise leave a session each on a stateful upstream (and a
    // process each on a per-session deployment). Bounded: a slow upstream does not hold the probe.
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId && !abort.signal.aborted) {
      await Promise.race([
        transport.terminateSession().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 2_000).unref()),
      ]);
    }
    await client.close().catch(() => undefined);
  }
}

/**
 * A short, single-line reason for a failed probe (stored as servers.last_error, shown to every
 * member). Only Toolscope's own words and an MCP server's JSON-RPC error reach it: an HTTP error
 * answer is its status class, and every failure without an answer is one fixed text, so a health
 * check cannot read an internal service's error page or tell its closed ports from open ones
 * (net/outboundOutcome.ts). NULs are dropped: PostgreSQL cannot store them.
 */
export function describeUpstreamError(error: unknown): string {
  const text = ownUpstreamErrorText(error);
  return storableText(text).replace(/\s+/g, ' ').trim().slice(0, 500) || NO_HTTP_ANSWER;
}

function ownUpstreamErrorText(error: unknown): string {
  const own = ownRefusal(error);
  if (own) return own;
  if (error instanceof UpstreamCancelledError) return error.message;
  if (error instanceof McpError) return error.message;
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    if (typeof error.code === 'number' && error.code >= 100 && error.code < 600) return statusClassText(error.code);
    return NOT_MCP;
  }
  if (error instanceof SyntaxError || (error instanceof Error && /content[- ]type/i.test(error.message)))
    return NOT_MCP;
  return NO_HTTP_ANSWER;
}

const NOT_MCP = 'The destination answered, but not with MCP';
