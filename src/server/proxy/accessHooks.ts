import type { ProxyReply, ProxyRequest } from './exchangeIo';
import { agentCallLimitText } from '../../contract/agentAccess';
import { planById } from '../../contract/plans';
import type { ProxyContext } from './context';
import { parseMessages, requestsIn, type JsonRpcId, type JsonRpcMessage } from './jsonRpc';
import type { MessageTap } from './messageTap';
import type { UpstreamTarget } from './upstreamDirectory';

// The two checks of the proxy's request path (docs/access.md), as the transports call them:
// the agent's platform key (memory only) and, for tools/call, the monthly quota (one shared
// counter). Each answers the agent itself when it refuses, in the shape MCP clients show.
declare module 'fastify' {
  interface FastifyRequest {
    /** The platform key the agent presented, once accepted (null: none presented, none required). */
    platformKeyId?: string | null;
  }
}

function requestIds(request: ProxyRequest): (JsonRpcId | null)[] {
  const body = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  const ids = requestsIn(parseMessages(body)).map((r) => r.id);
  return ids.length ? ids : [null];
}

/**
 * True when the request may go on. Otherwise the agent gets 401 (with WWW-Authenticate) or 403 and
 * a JSON-RPC error per request it sent — an SDK client shows that text as the failure.
 */
export function authorizeAgent(
  ctx: ProxyContext,
  request: ProxyRequest,
  reply: ProxyReply,
  target: UpstreamTarget,
): boolean {
  const decision = ctx.access.check(request.headers, target);
  if (decision.ok) {
    request.platformKeyId = decision.keyId;
    return true;
  }
  if (decision.status === 401) {
    const error = decision.reason === 'missing' ? 'invalid_request' : 'invalid_token';
    // Header values are ASCII (RFC 6750's error_description has no quotes or backslashes either).
    const description = decision.message.replace(/…/g, '...').replace(/[^\x20-\x7e]|["\\]/g, '');
    void reply.header(
      'www-authenticate',
      `Bearer realm="Toolscope MCP proxy", error="${error}", error_description="${description}"`,
    );
  }
  const errors = requestIds(request).map((id) => ({
    jsonrpc: '2.0',
    id,
    error: { code: decision.code, message: decision.message, data: { source: 'toolscope', reason: decision.reason } },
  }));
  void reply
    .status(decision.status)
    .type('application/json')
    .send(errors.length === 1 ? errors[0] : errors);
  return false;
}

/**
 * For a POST carrying tools/call requests: asks the quota gate for them (all of them, or none).
 * Refused: the calls are recorded with the -32023 error the agent gets, in an HTTP 200 (as every
 * per-call error of the proxy: an SDK client surfaces a non-2xx as a transport error, a JSON-RPC
 * error as the call's McpError whose text the agent can hand its model) with Retry-After and the
 * IETF RateLimit headers; the function answers and returns false.
 */
export function admitToolCalls(
  ctx: ProxyContext,
  target: UpstreamTarget,
  requests: (JsonRpcMessage & { id: JsonRpcId })[],
  isBatch: boolean,
  tap: MessageTap,
  recordRequestSide: () => Promise<void> | undefined,
  reply: ProxyReply,
): true | Promise<boolean> {
  let calls = 0;
  for (const r of requests) if (r.method === 'tools/call') calls++;
  if (calls === 0) return true;
  // Answered from memory (no limit, or calls left in the lease): true, with no promise to await.
  if (ctx.quota.admitFromMemory(target.workspaceId, calls)) return true;
  return admitByStatement(ctx, target, requests, isBatch, tap, recordRequestSide, reply, calls);
}

async function admitByStatement(
  ctx: ProxyContext,
  target: UpstreamTarget,
  requests: (JsonRpcMessage & { id: JsonRpcId })[],
  isBatch: boolean,
  tap: MessageTap,
  recordRequestSide: () => Promise<void> | undefined,
  reply: ProxyReply,
  calls: number,
): Promise<boolean> {
  const admission = await ctx.quota.admit(target.workspaceId, calls);
  if (admission.admitted === calls) return true;
  const { data, retryAfterSeconds } = ctx.quota.refusal(admission);
  const message = agentCallLimitText(planById(admission.plan).name);
  const errors = requests.map((r) => ({ jsonrpc: '2.0' as const, id: r.id, error: { code: -32023, message, data } }));
  const journaled = recordRequestSide();
  for (const error of errors) tap.fromServer(error, 0);
  // The answer waits only when a request of the session waits for its redaction (a large one).
  if (journaled) await journaled;
  void reply
    .status(200)
    .header('retry-after', String(retryAfterSeconds))
    // draft-ietf-httpapi-ratelimit-headers: the policy (quota per ~month) and what is left of it.
    .header('ratelimit-policy', `"monthly";q=${data.limit};w=2592000`)
    .header('ratelimit', `"monthly";r=0;t=${retryAfterSeconds}`)
    .type('application/json')
    .send(isBatch ? errors : errors[0]);
  return false;
}
