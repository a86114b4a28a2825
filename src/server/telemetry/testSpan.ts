import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { hrTime, spanOfCall } from './spanMapping';

// The span an exporter's test sends (POST …/telemetry/exporters/:id/test): a made-up call of a
// made-up session, marked `toolscope.test`, so a collector shows what Toolscope's spans look like.

export function testSpanOf(workspaceId: string, resource: Resource): ReadableSpan {
  const now = Date.now();
  const span = spanOfCall(
    {
      id: 'test',
      sessionId: 'test',
      serverId: 'test',
      jsonrpcId: null,
      toolName: 'toolscope.test',
      arguments: null,
      result: null,
      errorMessage: null,
      status: 'ok',
      startedAt: new Date(now - 1).toISOString(),
      endedAt: new Date(now).toISOString(),
      durationMs: 1,
      requestBytes: 0,
      responseBytes: 0,
      tokens: null,
      meta: null,
      traceparent: null,
    },
    {
      workspaceId,
      mcpSessionId: null,
      agentSessionId: null,
      protocolVersion: null,
      clientName: 'toolscope-test',
      serverUrl: null,
      serverName: 'Toolscope test',
    },
    resource,
  );
  return {
    ...span,
    name: 'toolscope test span',
    startTime: hrTime(now - 1),
    attributes: { ...span.attributes, 'toolscope.test': true },
  };
}
