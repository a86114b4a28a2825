import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonRpcObject } from './stdioChannel';

// The Streamable HTTP side of a deployment: one SDK server transport per agent session (the
// SDK does the protocol: session ids, SSE or JSON answers, the GET stream, DELETE). Sessions that
// go quiet are closed after `idleMs` — agents and health probes often leave without a DELETE.
export interface SessionHooks {
  /** Before a new session's initialize is handled (per-session mode starts its process here); throw to refuse. */
  open?(session: AgentSession): Promise<void>;
  message(session: AgentSession, message: JsonRpcObject): void;
  closed(session: AgentSession): void;
}

export class AgentSession {
  lastSeen = Date.now();
  /** Per-mode state (the per-session bridge keeps the session's process here). */
  state: unknown;
  constructor(readonly transport: StreamableHTTPServerTransport) {}

  get id(): string | undefined {
    return this.transport.sessionId;
  }

  /** Sends to the agent; a message for a request whose stream is gone is dropped. */
  send(message: JsonRpcObject, relatedRequestId?: string | number): void {
    this.transport
      .send(message as JSONRPCMessage, relatedRequestId === undefined ? undefined : { relatedRequestId })
      .catch(() => undefined);
  }
}

export function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize',
  );
}

export class HttpSessions {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly hooks: SessionHooks,
    private readonly options: { idleMs: number; maxSessions: number },
  ) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, options.idleMs));
    this.sweeper.unref();
  }

  get count(): number {
    return this.sessions.size;
  }

  all(): Iterable<AgentSession> {
    return this.sessions.values();
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session) {
        jsonRpcError(res, 404, -32001, 'Session not found');
        return;
      }
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitialize(body)) {
      jsonRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
      return;
    }
    if (this.sessions.size >= this.options.maxSessions) {
      this.closeIdle(0);
      if (this.sessions.size >= this.options.maxSessions) {
        jsonRpcError(res, 503, -32000, 'Too many sessions on this deployment; try again later');
        return;
      }
    }
    // onsessioninitialized runs inside handleRequest below, when `session` is set.
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
      },
    });
    const session = new AgentSession(transport);
    transport.onmessage = (message) => this.hooks.message(session, message);
    transport.onclose = () => {
      if (session.id) this.sessions.delete(session.id);
      this.hooks.closed(session);
    };
    try {
      await this.hooks.open?.(session);
    } catch (error) {
      jsonRpcError(
        res,
        503,
        -32010,
        error instanceof Error ? error.message : 'The deployment could not start a session',
      );
      return;
    }
    await transport.handleRequest(req, res, body);
  }

  /** Closes sessions quiet for longer than idleMs (or `olderThanMs`). */
  closeIdle(olderThanMs = this.options.idleMs): void {
    const cutoff = Date.now() - olderThanMs;
    const idle = [...this.sessions.values()].filter((s) => s.lastSeen < cutoff).sort((a, b) => a.lastSeen - b.lastSeen);
    for (const session of olderThanMs === 0 ? idle.slice(0, 1) : idle) void session.transport.close();
  }

  /** Ends every session; `dispose` also ends the idle sweeper (the owner is going away). */
  async closeAll(dispose = true): Promise<void> {
    if (dispose) clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
    this.sessions.clear();
  }
}
