import { errors as undiciErrors } from 'undici';
import { errorTypeOf } from '../../../src/server/telemetry/spanMapping';
import {
  UpstreamErrorCode,
  describeFailure,
  httpFailure,
  httpRejection,
  notMcpFailure,
} from '../../../src/server/proxy/upstreamErrors';
import { OutboundBlockedError } from '../../../src/server/net/outboundClient';

// error.type of a recorded call (issue 37 item 9): the JSON-RPC code the agent received, the
// proxy's own included — built from the very messages the proxy writes, so a reworded message
// that telemetry no longer recognises fails here.
const failed = (errorMessage: string) => ({ status: 'error' as const, result: null, errorMessage });

describe('error.type of a recorded call', () => {
  it.each([
    [
      'unreachable',
      describeFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), 1000),
      UpstreamErrorCode.unreachable,
    ],
    ['timeout', describeFailure(new undiciErrors.HeadersTimeoutError(), 1000), UpstreamErrorCode.timeout],
    ['blocked', describeFailure(new OutboundBlockedError('private address'), 1000), UpstreamErrorCode.blocked],
    ['not MCP', notMcpFailure(200, 'text/html'), UpstreamErrorCode.notMcp],
    ['HTTP failure', httpFailure(502), UpstreamErrorCode.failed],
    ['HTTP rejection', httpRejection(404, 'Session not found'), UpstreamErrorCode.failed],
  ])('names the proxy’s own %s by its code', (_name, failure, code) => {
    expect(failure.code).toBe(code);
    expect(errorTypeOf(failed(failure.message))).toBe(String(code));
  });

  it('keeps the upstream’s own JSON-RPC code, tool errors and statuses', () => {
    expect(errorTypeOf(failed('-32602: Invalid params'))).toBe('-32602');
    expect(errorTypeOf({ status: 'error', result: { isError: true }, errorMessage: null })).toBe('tool_error');
    expect(errorTypeOf({ status: 'timeout', result: null, errorMessage: 'No response before the session ended' })).toBe(
      'timeout',
    );
    expect(errorTypeOf({ status: 'ok', result: {}, errorMessage: null })).toBeUndefined();
    expect(errorTypeOf(failed('something nobody named'))).toBe('_OTHER');
  });
});
