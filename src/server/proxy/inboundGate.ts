import type { ProxyReply, ProxyRequest } from './exchangeIo';
import type { IncomingMessage } from 'node:http';
import type { ProxyContext } from './context';
import { inboundRefusal } from './inboundBudget';

// The inbound budget (inboundBudget.ts) applied as early as it can be: a POST that declares its
// length is charged before its body is read, and refused then — the body is never buffered or
// parsed; Node discards its bytes as they come once the answer is out. A body without a length
// (chunked), or to a key not known here yet, is charged by the route once read (chargeRead): the
// gate does no lookup of its own, so a known key costs the hot path a Map read, no await.

const charged = new WeakSet<IncomingMessage>();

/** What the gate reads of a request: every route of the proxy's scope passes through it, not only /mcp/{key}. */
type GateRequest = Pick<ProxyRequest, 'method' | 'headers' | 'raw'> & { readonly params: unknown };

/** onRequest hook of the proxy's routes, and the first step of the raw Streamable HTTP path (rawExchange.ts). */
export function inboundGate(ctx: ProxyContext) {
  return (request: GateRequest, reply: ProxyReply, done: () => void): void => {
    const declared = request.method === 'POST' ? Number(request.headers['content-length']) : Number.NaN;
    const key = (request.params as { proxyKey?: string }).proxyKey;
    // No length, or over the body limit (the parser answers 413), or a key not known yet: left to the route.
    const target =
      declared > 0 && declared <= ctx.app.config.proxyBodyLimitBytes && key ? ctx.directory.known(key) : undefined;
    if (!target) {
      done();
      return;
    }
    const decision = ctx.inbound.admit(target.workspaceId, declared);
    if (decision.admitted) {
      charged.add(request.raw);
      done();
      return;
    }
    const refusal = inboundRefusal(decision);
    void reply.status(refusal.status).headers(refusal.headers).type('application/json').send(refusal.body);
  };
}

/**
 * For the route, once a body is read: true when it may be handled (charged before it was read, or
 * within the budget now); otherwise the refusal is sent and false returned.
 */
export function chargeRead(
  ctx: ProxyContext,
  request: Pick<ProxyRequest, 'raw'>,
  reply: ProxyReply,
  workspaceId: string,
  bytes: number,
): boolean {
  if (charged.has(request.raw)) return true;
  const decision = ctx.inbound.admit(workspaceId, bytes);
  if (decision.admitted) return true;
  const refusal = inboundRefusal(decision);
  void reply.status(refusal.status).headers(refusal.headers).type('application/json').send(refusal.body);
  return false;
}
