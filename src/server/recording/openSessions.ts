import { randomUUID } from 'node:crypto';
import type { PendingRequest } from './callPairing';
import type { InputRoundsSession } from './inputRounds';
import type { ProgressRuns } from './progressCoalescing';
import type { QueuedSession, SessionState } from './rows';
import type { SessionStart } from './sessionStart';

// The sessions this instance is recording, and the ways the proxy finds one again: by the MCP
// session id the upstream gave (per server), or — for traffic without one — by the agent's
// identity (its credential fingerprint on a server: the inference rule, recorder.ts). The
// recorder decides when sessions start and end; this only keeps them findable.

export interface SessionOrigin {
  workspaceId: string;
  serverId: string;
  serverName: string | null;
}

export interface RecordedSession extends QueuedSession, InputRoundsSession {
  readonly row: SessionState;
  seq: number;
  lastActivityMs: number;
  pending: Map<string, PendingRequest>;
  inferredIdentity?: string;
  /** Progress streams being coalesced (progressCoalescing.ts). */
  progress?: ProgressRuns;
  /**
   * Set on a session that any instance may record (its id is sealed, docs/proxy.md "Any instance
   * serves any session"): its messages are numbered from the milliseconds since this start, so
   * the numbers of several instances interleave in time (see nextSeq).
   */
  clockSeqBaseMs?: number;
  /**
   * Set while a message of the session waits for its redaction off the event loop: resolves once
   * it — and every message of the session queued behind it — is recorded (messageRecording.ts).
   */
  recordingBacklog?: Promise<void>;
}

/** A session row as it starts: active, nothing counted yet. `existing`: one another instance started. */
export function newRecordedSession(
  origin: SessionOrigin,
  start: SessionStart,
  nowMs: number,
  existing?: { id: string; startedAtMs: number; adopted: boolean },
): RecordedSession {
  const at = new Date(nowMs).toISOString();
  return {
    row: {
      id: existing?.id ?? randomUUID(),
      workspace_id: origin.workspaceId,
      server_id: origin.serverId,
      server_name: origin.serverName,
      mcp_session_id: start.mcpSessionId ?? null,
      transport: start.transport,
      protocol_version: start.protocolVersion ?? null,
      client_name: start.clientName ?? null,
      client_version: start.clientVersion ?? null,
      client_key: start.clientKey ?? null,
      trace_id: start.traceId ?? null,
      platform_key_id: start.platformKeyId ?? null,
      status: 'active',
      started_at: existing ? new Date(existing.startedAtMs).toISOString() : at,
      last_activity_at: at,
      ended_at: null,
      message_count: 0,
      call_count: 0,
      error_count: 0,
      argument_tokens: 0,
      result_tokens: 0,
      definition_tokens: 0,
    },
    seq: 0,
    lastActivityMs: nowMs,
    pending: new Map(),
    // An adopted session's start was counted and announced where it started.
    announced: existing?.adopted ?? false,
    adopted: existing?.adopted,
    endAnnounced: false,
  };
}

const mcpKey = (serverId: string, mcpSessionId: string) => `${serverId}\u0001${mcpSessionId}`;

export class OpenSessions {
  private readonly sessions = new Set<RecordedSession>();
  private readonly byMcpId = new Map<string, RecordedSession>();
  private readonly byIdentity = new Map<string, RecordedSession>();

  get size(): number {
    return this.sessions.size;
  }

  has(session: RecordedSession): boolean {
    return this.sessions.has(session);
  }

  /** A copy: callers end sessions while they go through them. */
  all(): RecordedSession[] {
    return [...this.sessions];
  }

  add(session: RecordedSession): void {
    this.sessions.add(session);
    if (session.row.mcp_session_id)
      this.byMcpId.set(mcpKey(session.row.server_id, session.row.mcp_session_id), session);
  }

  byMcpSessionId(serverId: string, mcpSessionId: string): RecordedSession | undefined {
    return this.byMcpId.get(mcpKey(serverId, mcpSessionId));
  }

  /** The session now answers to this MCP session id too. */
  attachMcpSessionId(session: RecordedSession, mcpSessionId: string): void {
    this.byMcpId.set(mcpKey(session.row.server_id, mcpSessionId), session);
  }

  /** The inferred session of an agent on a server (see Recorder.inferSession). */
  byAgent(identity: string): RecordedSession | undefined {
    return this.byIdentity.get(identity);
  }

  setAgentSession(identity: string, session: RecordedSession): void {
    session.inferredIdentity = identity;
    this.byIdentity.set(identity, session);
  }

  /** An ended session: no longer found by any key. */
  remove(session: RecordedSession): void {
    this.sessions.delete(session);
    if (session.row.mcp_session_id) this.byMcpId.delete(mcpKey(session.row.server_id, session.row.mcp_session_id));
    if (session.inferredIdentity && this.byIdentity.get(session.inferredIdentity) === session)
      this.byIdentity.delete(session.inferredIdentity);
  }

  /** A deleted server: its sessions are forgotten (not ended: their rows are gone with it). */
  forgetServer(serverId: string): void {
    for (const session of this.sessions) if (session.row.server_id === serverId) this.sessions.delete(session);
    for (const [key, session] of this.byMcpId) if (session.row.server_id === serverId) this.byMcpId.delete(key);
    for (const [key, session] of this.byIdentity) if (session.row.server_id === serverId) this.byIdentity.delete(key);
  }
}
