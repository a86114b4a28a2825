import { storableText } from '../db/storable';
import type { SessionState } from './rows';

// What the proxy knows of a session when it starts one: transport, ids and the client's identity,
// all taken from the agent's traffic.

export interface SessionStart {
  transport: string;
  mcpSessionId?: string | null;
  protocolVersion?: string | null;
  clientName?: string | null;
  clientVersion?: string | null;
  clientKey?: string | null;
  traceId?: string | null;
  /** The platform key the agent presented at the proxy (docs/access.md). */
  platformKeyId?: string | null;
}

/** Client name, version, trace id… come from the agent's messages: NUL-free before they reach a row. */
export function storableStart(start: SessionStart): SessionStart {
  const text = (value: string | null | undefined) => (typeof value === 'string' ? storableText(value) : value);
  return {
    ...start,
    mcpSessionId: text(start.mcpSessionId),
    protocolVersion: text(start.protocolVersion),
    clientName: text(start.clientName),
    clientVersion: text(start.clientVersion),
    traceId: text(start.traceId),
  };
}

/**
 * Whether traffic starting with `start` belongs to the inferred session `row` (docs/proxy.md): no
 * different trace id or client name/version where both are known.
 */
export function sameAgentRun(row: SessionState, start: SessionStart): boolean {
  const differs = (a: string | null | undefined, b: string | null) => !!a && !!b && a !== b;
  return (
    !differs(start.traceId, row.trace_id) &&
    !differs(start.clientName, row.client_name) &&
    !differs(start.clientVersion, row.client_version)
  );
}

/** What the session's row did not know yet, taken from `start`; true when the row changed. */
export function learnIdentity(row: SessionState, start: SessionStart): boolean {
  let changed = false;
  if (start.traceId && !row.trace_id) {
    row.trace_id = start.traceId;
    changed = true;
  }
  if (start.clientName && !row.client_name) {
    row.client_name = start.clientName;
    changed = true;
  }
  if (start.clientVersion && !row.client_version) {
    row.client_version = start.clientVersion;
    changed = true;
  }
  if (start.protocolVersion && !row.protocol_version) {
    row.protocol_version = start.protocolVersion;
    changed = true;
  }
  return changed;
}
