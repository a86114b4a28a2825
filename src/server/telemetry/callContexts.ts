import type { SessionDto, ToolCallDto } from '../../contract/sessions';
import type { Database } from '../db/database';
import type { AgentSessionIds } from './agentSessionId';
import type { CallContext } from './spanMapping';

// What a span says about its call beyond the call's row: the session's MCP id, protocol version and
// client, the server's URL and name. Kept from the live stream (session_started, server_updated)
// and read from the database for one not seen yet (telemetryService.ts).

interface SessionContext {
  mcpSessionId: string | null;
  agentSessionId: string | null;
  protocolVersion: string | null;
  clientName: string | null;
  /**
   * Whether this came from the session's row as stored with its calls. A session announced before
   * its initialize (legacy SSE starts at the GET, before any message) has no client or version
   * yet: its first call reads the row again, once.
   */
  settled: boolean;
}

/** Sessions remembered at most (the oldest is forgotten first). */
const MAX_SESSIONS = 10_000;

export class CallContexts {
  private readonly sessions = new Map<string, SessionContext>();
  private readonly servers = new Map<string, { url: string; name: string }>();

  constructor(
    private readonly db: Database,
    readonly agentSessionIds: AgentSessionIds,
  ) {}

  sessionStarted(session: SessionDto): void {
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    this.sessions.set(session.id, {
      mcpSessionId: session.mcpSessionId,
      agentSessionId: this.agentSessionIds.of({ ...session, startedAtMs: Date.parse(session.startedAt) }),
      protocolVersion: session.protocolVersion,
      clientName: session.clientName,
      settled: session.clientName !== null && session.protocolVersion !== null,
    });
  }

  sessionEnded(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  serverUpdated(server: { id: string; url: string; name: string }): void {
    this.servers.set(server.id, { url: server.url, name: server.name });
  }

  server(serverId: string): { url: string; name: string } | undefined {
    return this.servers.get(serverId);
  }

  /** The context of a call's span: its session and server, from memory or, once, the database. */
  async of(workspaceId: string, call: ToolCallDto): Promise<CallContext> {
    let server = this.servers.get(call.serverId);
    if (!server) {
      const rows = await this.db
        .query<{ url: string; name: string }>('select url, name from servers where id = $1', [call.serverId])
        .catch(() => []);
      const row = rows.at(0);
      if (row) this.servers.set(call.serverId, (server = { url: row.url, name: row.name }));
    }
    let session = this.sessions.get(call.sessionId);
    if (!session?.settled) {
      const rows = await this.db
        .query<{
          mcp_session_id: string | null;
          protocol_version: string | null;
          client_name: string | null;
          transport: string;
          started_at: Date | string;
        }>('select mcp_session_id, protocol_version, client_name, transport, started_at from sessions where id = $1', [
          call.sessionId,
        ])
        .catch(() => []);
      const row = rows.at(0);
      if (row) {
        const agentSessionId = this.agentSessionIds.of({
          id: call.sessionId,
          serverId: call.serverId,
          transport: row.transport,
          mcpSessionId: row.mcp_session_id,
          startedAtMs: new Date(row.started_at).getTime(),
        });
        const stored = { mcpSessionId: row.mcp_session_id, agentSessionId, protocolVersion: row.protocol_version };
        // A remembered session is updated where it is (its place in the forgetting order kept).
        session = Object.assign(session ?? { settled: true }, stored, { clientName: row.client_name, settled: true });
      } else if (session) session.settled = true;
      else
        session = { mcpSessionId: null, agentSessionId: null, protocolVersion: null, clientName: null, settled: true };
    }
    return {
      workspaceId,
      mcpSessionId: session.mcpSessionId,
      agentSessionId: session.agentSessionId,
      protocolVersion: session.protocolVersion,
      clientName: session.clientName,
      serverUrl: server?.url ?? null,
      serverName: server?.name ?? call.serverName ?? null,
    };
  }
}
