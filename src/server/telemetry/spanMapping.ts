import { randomBytes } from 'node:crypto';
import { proxyFailureCode } from '../proxy/upstreamErrors';
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime, type SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ATTR_ERROR_TYPE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
} from '@opentelemetry/semantic-conventions/incubating';
import type { ToolCallDto } from '../../contract/sessions';
import type { McpRequestEvent } from '../proxy/proxyEvents';
import { proxySpanContext } from './proxySpanContext';

// A recorded tool call as an OpenTelemetry span, named and attributed per the semantic
// conventions for MCP and GenAI ("tools/call {tool}", mcp.*, gen_ai.*, jsonrpc.request.id), a
// child of the agent's span when the agent sent a W3C traceparent, so it joins the agent's trace.

export const INSTRUMENTATION_SCOPE = { name: 'toolscope.proxy', version: '1' };

/** What the span needs of the call's session and server (cached from live messages and the servers table). */
export interface CallContext {
  workspaceId: string;
  /** The upstream's session id: span and trace ids derive from it (proxySpanContext.ts). */
  mcpSessionId: string | null;
  /** The session id the agent holds: the `mcp.session.id` attribute (agentSessionId.ts). */
  agentSessionId: string | null;
  protocolVersion: string | null;
  clientName: string | null;
  serverUrl: string | null;
  serverName: string | null;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The agent's span context from a traceparent, or undefined when absent or invalid (all-zero ids are invalid). */
export function parseTraceparent(value: string | null | undefined): SpanContext | undefined {
  const match = value ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]) || /^0+$/.test(match[3])) return undefined;
  return {
    traceId: match[2],
    spanId: match[3],
    traceFlags: Number.parseInt(match[4], 16) & 1 ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  };
}

export function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/**
 * Whether a trace is kept at this ratio: decided by its id, so every span of one trace (on any
 * instance, by any exporter with the same ratio) is kept or dropped together.
 */
export function sampled(traceId: string, ratio: number): boolean {
  if (ratio >= 1) return true;
  if (ratio <= 0) return false;
  return Number.parseInt(traceId.slice(-8), 16) / 0x1_0000_0000 < ratio;
}

/**
 * `error.type` of a call (MCP semantic conventions): `tool_error` for a result with isError, the
 * JSON-RPC code the agent received — the upstream's or the proxy's own (-32010 unreachable,
 * -32011 timeout, …) — else the call's status (timeout, cancelled), `_OTHER` only for an error
 * nothing names.
 */
export function errorTypeOf(call: Pick<ToolCallDto, 'status' | 'result' | 'errorMessage'>): string | undefined {
  if (call.status === 'ok') return undefined;
  const result = call.result as { isError?: unknown } | null;
  if (result && typeof result === 'object' && result.isError === true) return 'tool_error';
  const message = call.errorMessage ?? '';
  const proxyCode = proxyFailureCode(message);
  if (proxyCode !== undefined) return String(proxyCode);
  const code = /(-32\d{3})/.exec(message);
  return code ? code[1] : call.status === 'error' ? '_OTHER' : call.status;
}

function address(url: string | null): { host?: string; port?: number } {
  if (!url) return {};
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return { host: parsed.hostname, port };
  } catch {
    return {};
  }
}

/** The span of one recorded call; its trace and parent come from the agent's traceparent when there is one. */
interface SpanParts {
  name: string;
  spanContext: SpanContext;
  parent: SpanContext | undefined;
  startMs: number;
  endMs: number;
  error: { message: string } | null;
  attributes: ReadableSpan['attributes'];
  resource: Resource;
}

/** A finished SERVER span of the proxy (Toolscope serves the agent's request). */
function finishedSpan({
  name,
  spanContext,
  parent,
  startMs,
  endMs,
  error,
  attributes,
  resource,
}: SpanParts): ReadableSpan {
  const end = Math.max(endMs, startMs);
  return {
    name,
    kind: SpanKind.SERVER,
    spanContext: () => spanContext,
    parentSpanContext: parent,
    startTime: hrTime(startMs),
    endTime: hrTime(end),
    duration: hrTime(end - startMs),
    status: error ? { code: SpanStatusCode.ERROR, message: error.message } : { code: SpanStatusCode.UNSET },
    attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: INSTRUMENTATION_SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** The span id the proxy forwarded upstream for this request when it had one to derive, else new ids. */
function ownSpanContext(
  serverId: string,
  mcpSessionId: string | null,
  jsonrpcId: string | null,
  traceparent: string | null,
  parent: SpanContext | undefined,
): SpanContext {
  const own = proxySpanContext(serverId, mcpSessionId, jsonrpcId, traceparent);
  return {
    traceId: own?.traceId ?? parent?.traceId ?? randomBytes(16).toString('hex'),
    spanId: own?.spanId ?? randomBytes(8).toString('hex'),
    traceFlags: TraceFlags.SAMPLED,
  };
}

/**
 * The span of a request other than tools/call (initialize, tools/list, resources/read,
 * prompts/get, …), from the proxy's own observation of it: named by its method as the MCP
 * conventions name spans, an error when the answer was a JSON-RPC error (error.type its code).
 */
export function spanOfRequest(
  request: McpRequestEvent,
  context: Pick<CallContext, 'serverName' | 'agentSessionId'>,
  resource: Resource,
): ReadableSpan {
  const parent = parseTraceparent(request.traceparent);
  const spanContext = ownSpanContext(
    request.serverId,
    request.mcpSessionId,
    request.jsonrpcId,
    request.traceparent,
    parent,
  );
  // The URL the proxy sent this very request to: an initialize or server/discover (often the first
  // request of a server this instance has not seen) has its address as every later request does.
  const { host, port } = address(request.serverUrl);
  const attributes: ReadableSpan['attributes'] = {
    [ATTR_MCP_METHOD_NAME]: request.method,
    [ATTR_JSONRPC_REQUEST_ID]: request.jsonrpcId,
    'toolscope.workspace.id': request.workspaceId,
    'toolscope.server.id': request.serverId,
  };
  if (request.sessionId) attributes['toolscope.session.id'] = request.sessionId;
  if (context.agentSessionId) attributes[ATTR_MCP_SESSION_ID] = context.agentSessionId;
  if (request.protocolVersion) attributes[ATTR_MCP_PROTOCOL_VERSION] = request.protocolVersion;
  if (request.clientName) attributes['toolscope.client.name'] = request.clientName;
  if (context.serverName) attributes['toolscope.server.name'] = context.serverName;
  if (host) attributes[ATTR_SERVER_ADDRESS] = host;
  if (port) attributes[ATTR_SERVER_PORT] = port;
  if (request.errorCode !== null) attributes[ATTR_ERROR_TYPE] = String(request.errorCode);
  const error = request.errorCode !== null ? { message: request.errorMessage ?? String(request.errorCode) } : null;
  return finishedSpan({
    name: request.method,
    spanContext,
    parent,
    startMs: request.startedMs,
    endMs: request.endedMs,
    error,
    attributes,
    resource,
  });
}

export function spanOfCall(call: ToolCallDto, context: CallContext, resource: Resource): ReadableSpan {
  const parent = parseTraceparent(call.traceparent);
  const spanContext = ownSpanContext(call.serverId, context.mcpSessionId, call.jsonrpcId, call.traceparent, parent);
  const startMs = Date.parse(call.startedAt);
  const endMs = call.endedAt ? Date.parse(call.endedAt) : startMs + (call.durationMs ?? 0);
  const error = errorTypeOf(call);
  const { host, port } = address(context.serverUrl);
  const attributes: ReadableSpan['attributes'] = {
    [ATTR_MCP_METHOD_NAME]: 'tools/call',
    [ATTR_GEN_AI_TOOL_NAME]: call.toolName,
    [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
    'toolscope.workspace.id': context.workspaceId,
    'toolscope.server.id': call.serverId,
    'toolscope.session.id': call.sessionId,
    'toolscope.call.id': call.id,
  };
  if (call.jsonrpcId !== null) attributes[ATTR_JSONRPC_REQUEST_ID] = call.jsonrpcId;
  if (context.agentSessionId) attributes[ATTR_MCP_SESSION_ID] = context.agentSessionId;
  if (context.protocolVersion) attributes[ATTR_MCP_PROTOCOL_VERSION] = context.protocolVersion;
  if (context.clientName) attributes['toolscope.client.name'] = context.clientName;
  if (context.serverName) attributes['toolscope.server.name'] = context.serverName;
  if (host) attributes[ATTR_SERVER_ADDRESS] = host;
  if (port) attributes[ATTR_SERVER_PORT] = port;
  if (error) attributes[ATTR_ERROR_TYPE] = error;
  const failure = error ? { message: call.errorMessage ?? error } : null;
  return finishedSpan({
    name: `tools/call ${call.toolName}`,
    spanContext,
    parent,
    startMs,
    endMs,
    error: failure,
    attributes,
    resource,
  });
}
