import { SessionSeal } from '../proxy/sessionSeal';

// `mcp.session.id` on a span is the id the agent holds, so the agent's own spans and the proxy's
// join on it. On Streamable HTTP that is the sealed id the proxy handed out (sessionSeal.ts), not
// the upstream's id the session row keeps: sealing is deterministic, so it is sealed here again
// from the row. On legacy SSE it is the message endpoint's session, which the row keeps as it is.
// Span and trace ids still derive from the upstream's id (proxySpanContext.ts): the span id the
// proxy sent upstream as the parent must be the exported span's.

export interface RecordedSessionIdentity {
  /** The recorded session's row id. */
  id: string;
  serverId: string;
  transport: string;
  /** The upstream's Mcp-Session-Id (or the legacy endpoint's session), null when stateless. */
  mcpSessionId: string | null;
  /** The row's started_at (ms since the epoch): part of what the proxy sealed. */
  startedAtMs: number;
}

export class AgentSessionIds {
  private readonly seal: SessionSeal;

  constructor(secret: string) {
    this.seal = new SessionSeal(secret);
  }

  of(session: RecordedSessionIdentity): string | null {
    if (session.mcpSessionId === null || session.transport !== 'streamable-http') return session.mcpSessionId;
    if (!Number.isFinite(session.startedAtMs)) return session.mcpSessionId;
    return this.seal.seal(session.serverId, {
      recordedSessionId: session.id,
      upstreamSessionId: session.mcpSessionId,
      startedAtMs: session.startedAtMs,
    });
  }
}
