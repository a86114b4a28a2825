import type { SessionListItem, ToolCallDto } from '../../../../src/contract/sessions';

export const WORKSPACE_ID = '5b0b6a55-4f8e-4a39-9d53-2f1c0a6b7e01';
export const SERVER_ID = '9d7c3a10-6a4f-4d57-8e0c-1a2b3c4d5e6f';

/** A session as the list carries it (SessionDto plus tokens and cost). */
export function session(index: number, overrides: Partial<SessionListItem> = {}): SessionListItem {
  const started = Date.parse('2026-11-21T10:00:00.000Z') - index * 60_000;
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    workspaceId: WORKSPACE_ID,
    serverId: SERVER_ID,
    serverName: 'files',
    mcpSessionId: `mcp-${index}`,
    transport: 'streamable-http',
    protocolVersion: '2025-06-18',
    clientName: 'claude-code',
    clientVersion: '1.2.3',
    status: 'ended',
    startedAt: new Date(started).toISOString(),
    lastActivityAt: new Date(started + 5000).toISOString(),
    endedAt: new Date(started + 5000).toISOString(),
    durationMs: 5000,
    messageCount: 6,
    callCount: 2,
    errorCount: 0,
    tokens: 1234,
    cost: 0.0185,
    ...overrides,
  };
}

export function toolCall(index: number, overrides: Partial<ToolCallDto> = {}): ToolCallDto {
  const started = Date.parse('2026-11-21T10:00:00.000Z') + index * 1000;
  return {
    id: `11111111-0000-4000-8000-${String(index).padStart(12, '0')}`,
    sessionId: session(0).id,
    serverId: SERVER_ID,
    serverName: 'files',
    jsonrpcId: String(index + 1),
    toolName: 'read_file',
    arguments: { path: `/tmp/${index}.txt` },
    result: { content: [{ type: 'text', text: 'hello' }] },
    errorMessage: null,
    status: 'ok',
    startedAt: new Date(started).toISOString(),
    endedAt: new Date(started + 120).toISOString(),
    durationMs: 120,
    requestBytes: 100,
    responseBytes: 200,
    tokens: 50,
    meta: null,
    traceparent: null,
    ...overrides,
  };
}
