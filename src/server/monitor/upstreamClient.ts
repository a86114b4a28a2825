import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerTransport } from '../../contract/servers';
import { storableText } from '../db/storable';

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
  const boundedFetch: FetchLike = (url, init) => fetchImpl(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, abort.signal]) : abort.signal });
  const requestInit: RequestInit = target.headers ? { headers: target.headers } : {};
  const url = new URL(target.url);
  const transport =
    target.transport === 'sse'
      ? new SSEClientTransport(url, { fetch: boundedFetch, requestInit })
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
      await Promise.race([transport.terminateSession().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    }
    await client.close().catch(() => undefined);
  }
}

/**
 * A short, single-line reason for a failed probe (stored as servers.last_error). The text may
 * come from the upstream itself, so a NUL in it (which PostgreSQL cannot store) must not make
 * the probe's outcome unrecordable and leave a dead server showing online.
 */
export function describeUpstreamError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return storableText(`${message}${cause}`).replace(/\s+/g, ' ').trim().slice(0, 500) || 'Unknown error';
}
