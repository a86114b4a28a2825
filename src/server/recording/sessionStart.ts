import { storableText } from '../db/storable';

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
