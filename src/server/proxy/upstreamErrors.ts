import { errors as undiciErrors } from 'undici';
import { OutboundBlockedError, ResponseTooLargeError } from '../net/outboundClient';
import type { JsonRpcId, JsonRpcMessage } from './jsonRpc';

// What the agent gets when the upstream cannot answer: a JSON-RPC error per request (ids
// echoed), in the implementation-defined server error range -32000…-32099.
export const UpstreamErrorCode = {
  unreachable: -32010,
  timeout: -32011,
  failed: -32012,
  tooLarge: -32013,
  blocked: -32014,
  // The proxy's own limits (admission.ts): not the upstream's doing, but answered the same way.
  workspaceBusy: -32015,
  serverBusy: -32016,
  tooManyStreams: -32017,
  notMcp: -32018,
  // The workspace sent more request bytes than its plan's inbound budget (inboundBudget.ts).
  inboundBudget: -32019,
} as const;

/**
 * The proxy's own failure of a recorded call, from its message (what the recorder keeps): the
 * JSON-RPC code the agent received, as telemetry names it (`error.type`). Kept beside the
 * messages above so the two cannot drift apart; undefined for a message the proxy did not write.
 */
const FAILURE_MESSAGES: [RegExp, number][] = [
  [/^Tool server address refused/, -32014],
  [/^Tool server response too large/, -32013],
  [/^Tool server did not answer within/, -32011],
  [/^Tool server unreachable/, -32010],
  [/^Tool server did not answer with MCP/, -32018],
  [/^Tool server (failed with|answered) HTTP/, -32012],
];

export function proxyFailureCode(message: string): number | undefined {
  return FAILURE_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
}

export interface UpstreamFailure {
  code: number;
  message: string;
  reason: keyof typeof UpstreamErrorCode;
}

export function describeFailure(error: unknown, timeoutMs: number): UpstreamFailure {
  if (
    error instanceof OutboundBlockedError ||
    (error as { cause?: unknown } | null | undefined)?.cause instanceof OutboundBlockedError
  ) {
    const blocked = error instanceof OutboundBlockedError ? error : (error as { cause: OutboundBlockedError }).cause;
    return {
      code: UpstreamErrorCode.blocked,
      reason: 'blocked',
      message: `Tool server address refused: ${blocked.message}`,
    };
  }
  if (error instanceof ResponseTooLargeError)
    return { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' };
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return {
      code: UpstreamErrorCode.timeout,
      reason: 'timeout',
      message: `Tool server did not answer within ${timeoutMs} ms`,
    };
  }
  const detail =
    (error as { code?: unknown } | null | undefined)?.code ??
    (error as { cause?: { code?: unknown } | null } | null | undefined)?.cause?.code;
  return {
    code: UpstreamErrorCode.unreachable,
    reason: 'unreachable',
    message: `Tool server unreachable${typeof detail === 'string' ? ` (${detail})` : ''}`,
  };
}

/** The upstream answered with something that is not MCP (an HTML page, plain text, a JSON API). */
export function notMcpFailure(status: number, contentType: string): UpstreamFailure {
  const kind = contentType.split(';')[0].trim() || 'no content type';
  return {
    code: UpstreamErrorCode.notMcp,
    reason: 'notMcp',
    message: `Tool server did not answer with MCP (HTTP ${status}, ${kind})`,
  };
}

export function httpFailure(status: number): UpstreamFailure {
  return { code: UpstreamErrorCode.failed, reason: 'failed', message: `Tool server failed with HTTP ${status}` };
}

/**
 * An upstream that answered a request with an HTTP error (e.g. 400 "No valid session ID provided"
 * after it restarted): the agent's call failed with that status. `detail` is the JSON-RPC error
 * message of the body (or its text), shown as the recorded call's error.
 */
export function httpRejection(status: number, detail: string): UpstreamFailure {
  const text = detail.replace(/\s+/g, ' ').trim().slice(0, 300);
  return {
    code: UpstreamErrorCode.failed,
    reason: 'failed',
    message: `Tool server answered HTTP ${status}${text ? `: ${text}` : ''}`,
  };
}

/** What an error body says: its JSON-RPC error message, else its text. */
export function rejectionDetail(messages: readonly JsonRpcMessage[], text: string): string {
  for (const message of messages) {
    const error = message.error;
    if (error && typeof error.message === 'string') return error.message;
  }
  return /^\s*</.test(text) ? '' : text;
}

export function errorResponse(id: JsonRpcId | null, failure: UpstreamFailure): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: failure.code, message: failure.message, data: { source: 'toolscope', reason: failure.reason } },
  };
}
