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
} as const;

export interface UpstreamFailure {
  code: number;
  message: string;
  reason: keyof typeof UpstreamErrorCode;
}

export function describeFailure(error: unknown, timeoutMs: number): UpstreamFailure {
  if (error instanceof OutboundBlockedError || (error as { cause?: unknown })?.cause instanceof OutboundBlockedError) {
    const blocked = error instanceof OutboundBlockedError ? error : ((error as { cause: OutboundBlockedError }).cause);
    return { code: UpstreamErrorCode.blocked, reason: 'blocked', message: `Tool server address refused: ${blocked.message}` };
  }
  if (error instanceof ResponseTooLargeError) return { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' };
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError || error instanceof undiciErrors.ConnectTimeoutError) {
    return { code: UpstreamErrorCode.timeout, reason: 'timeout', message: `Tool server did not answer within ${timeoutMs} ms` };
  }
  const detail = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  return { code: UpstreamErrorCode.unreachable, reason: 'unreachable', message: `Tool server unreachable${typeof detail === 'string' ? ` (${detail})` : ''}` };
}

export function httpFailure(status: number): UpstreamFailure {
  return { code: UpstreamErrorCode.failed, reason: 'failed', message: `Tool server failed with HTTP ${status}` };
}

export function errorResponse(id: JsonRpcId | null, failure: UpstreamFailure): JsonRpcMessage {
  return { jsonrpc: '2.0', id, error: { code: failure.code, message: failure.message, data: { source: 'toolscope', reason: failure.reason } } };
}
