import type { FastifyPluginAsync } from 'fastify';
import type { ProxyReply, ProxyRequest } from './exchangeIo';
import type { ProxyContext } from './context';
import { agentFingerprint, agentTraceparentHeader, upstreamRequestHeaders } from './headers';
import { ExchangeAbort } from '../net/exchangeAbort';
import { requestsIn, type JsonRpcMessage } from './jsonRpc';
import { validateBody } from './requestValidation';
import { HEADER_MISMATCH, headerMismatch } from './headerMismatch';
import { chargeRead } from './inboundGate';
import { MessageTap } from './messageTap';
import { describeFailure, errorResponse, UpstreamErrorCode, type UpstreamFailure } from './upstreamErrors';
import { admitToolCalls } from './accessHooks';
import { relayAnswer, sendFailure, type Method } from './streamableAnswer';
import { findTarget } from './proxyTarget';
import { forwardOwnSpan, resolveSession } from './sessionResolution';
import { SEALED_PREFIX } from './sessionSeal';
import { declaresServerRequests, SessionOrder } from './sessionOrder';

// The Streamable HTTP transport (2025-03-26, 2025-06-18, 2025-11-25 with sessions; 2026-07-28
// stateless) at /mcp/{proxyKey}: POST, GET and DELETE go to the upstream over the keep-alive
// pool, once checked, admitted and recorded; the answer streams back as it arrives
// (streamableAnswer.ts).

/** How an exchange keeps its session's order (sessionOrder.ts). */
interface ExchangeOrder {
  /** A GET: says its stream is open upstream (or failed). */
  streamOpened?: () => void;
  /** A POST or DELETE: the session's GETs received before it, still on their way. */
  earlierStreams?: Promise<void>;
}

/** An exchange that waits for no stream and opens none. */
const NO_ORDER: ExchangeOrder = Object.freeze({});

/** One exchange, from whichever path received it: the Fastify routes below or rawExchange.ts. */
export type Forward = (method: Method, request: ProxyRequest, reply: ProxyReply) => Promise<unknown>;

export function streamableHttpForward(ctx: ProxyContext): Forward {
  const { config } = ctx.app;
  const speaksJsonRpc = new Set<string>();

  // Registered on arrival, before any await: the order is the one in which the proxy received them.
  function forward(method: Method, request: ProxyRequest, reply: ProxyReply) {
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId !== 'string') return forwardExchange(method, request, reply, NO_ORDER);
    // Most requests: no stream is on its way, so no session key (a string per call) to look one up by.
    if (method !== 'GET' && ctx.sessionOrder.pending === 0) return forwardExchange(method, request, reply, NO_ORDER);
    const key = SessionOrder.key(request.params.proxyKey, sessionId);
    if (method !== 'GET')
      return forwardExchange(method, request, reply, { earlierStreams: ctx.sessionOrder.earlierStreams(key) });
    const streamOpened = ctx.sessionOrder.streamOpening(key);
    return forwardExchange(method, request, reply, { streamOpened }).finally(streamOpened);
  }

  async function forwardExchange(method: Method, request: ProxyRequest, reply: ProxyReply, order: ExchangeOrder) {
    const target = await findTarget(ctx, request, reply, request.params.proxyKey);
    if (!target) return reply;
    // A sealed session id (sessionSeal.ts) carries the upstream's id; one that does not open here
    // is a session no instance knows: 404, which makes an SDK client initialize again.
    const sentSessionId =
      typeof request.headers['mcp-session-id'] === 'string' ? request.headers['mcp-session-id'] : undefined;
    const claims = sentSessionId?.startsWith(SEALED_PREFIX)
      ? ctx.sessionSeal.open(target.serverId, sentSessionId)
      : null;
    if (sentSessionId?.startsWith(SEALED_PREFIX) && !claims) {
      return reply
        .status(404)
        .type('application/json')
        .send({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    }
    const upstreamSessionId = claims?.upstreamSessionId ?? sentSessionId;
    const received = method === 'POST' ? (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)) : undefined;
    if (received && !chargeRead(ctx, request, reply, target.workspaceId, received.length)) return reply;
    // Checked before anything travels: only valid items reach the upstream (requestValidation.ts).
    const validated = received ? validateBody(received) : null;
    const proxyAnswers = validated?.rejected ?? [];
    if (validated && validated.forward === null) {
      return reply
        .status(400)
        .type('application/json')
        .send(validated.isBatch ? proxyAnswers : proxyAnswers[0]);
    }
    const body = validated?.forward ?? undefined;
    const messages = validated?.valid ?? [];
    const isBatch = validated?.isBatch ?? false;
    const mismatch = !isBatch && messages.length === 1 ? headerMismatch(request.headers, messages[0]) : null;
    if (mismatch) {
      return reply
        .status(400)
        .type('application/json')
        .send({
          jsonrpc: '2.0',
          id: messages[0].id ?? null,
          error: { code: HEADER_MISMATCH, message: 'Header mismatch', data: { reason: mismatch } },
        });
    }
    // The agent may open its GET stream as soon as this is answered (sessionOrder.ts).
    if (typeof sentSessionId === 'string' && hasMethod(messages, 'notifications/initialized'))
      ctx.sessionOrder.initializing(
        SessionOrder.key(request.params.proxyKey, sentSessionId),
        SessionOrder.agent(request.params.proxyKey, agentFingerprint(request)),
      );
    else if (messages.length === 1 && messages[0].method === 'initialize')
      ctx.sessionOrder.initializeSent(
        SessionOrder.agent(request.params.proxyKey, agentFingerprint(request)),
        declaresServerRequests(messages[0].params),
      );
    const text = proxyAnswers.length === 0 ? (validated?.text ?? '') : '';
    const requests = requestsIn(messages);
    const tap = new MessageTap(target, ctx.recorder, ctx.events, ctx.rewriter());
    const traceparentHeader = agentTraceparentHeader(request);
    tap.expectRequests(requests, traceparentHeader);

    const timeoutMs = target.timeoutMs ?? config.upstreamTimeoutMs;
    const abort = new ExchangeAbort();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    if (method === 'GET') {
      // Streams per session are capped: an agent that opens them in a loop holds its own places only.
      const sent = request.headers['mcp-session-id'];
      const releaseStream = ctx.admission.openStream(
        `${target.serverId}\u0001${typeof sent === 'string' ? `s:${sent}` : `a:${agentFingerprint(request)}`}`,
      );
      if (!releaseStream) {
        const limit = ctx.admission.streamLimit;
        const failure: UpstreamFailure = {
          code: UpstreamErrorCode.tooManyStreams,
          reason: 'tooManyStreams',
          message: `Too many open streams for this session (limit ${limit}); close one first`,
        };
        return reply.status(409).type('application/json').send(errorResponse(null, failure));
      }
      reply.raw.once('close', releaseStream);
      // From the start: an upstream may hold a GET stream's headers back until its first event.
      ctx.pushStreams.add(reply.raw);
      reply.raw.once('close', () => ctx.pushStreams.delete(reply.raw));
    }
    // A call lasts from the moment the proxy had its request (a JSON answer's headers and body
    // arrive together: a start taken at the answer's headers made such calls look instant).
    const receivedAtMs = ctx.recorder.clockMs();
    let requestRecorded = false;
    // A promise only when a message of this session waits for its redaction off the event loop (a
    // large one): the request then goes upstream, or is answered, once it is journaled.
    const recordRequestSide = (responseSessionId: string | undefined): Promise<void> | undefined => {
      if (requestRecorded) return undefined;
      requestRecorded = true;
      tap.session = resolveSession(ctx, target, request, messages, responseSessionId, upstreamSessionId, claims);
      const single = body !== undefined && messages.length === 1 && !isBatch && text !== '';
      for (const message of messages)
        tap.record(
          'client_to_server',
          message,
          single ? body.length : () => Buffer.byteLength(JSON.stringify(message)),
          single ? text : undefined,
          receivedAtMs,
          traceparentHeader,
        );
      // The request's rows reach the journal's file before any answer can reach the agent.
      return tap.commitJournal();
    };
    // Only an initialize without a session id learns its session from the upstream's answer (its
    // mcp-session-id header); every other exchange is recorded before it is forwarded, so its
    // request is journaled and in its session's order before anything the upstream sends back.
    const sessionFromAnswer = upstreamSessionId === undefined && hasMethod(messages, 'initialize');
    // The monthly quota (accessHooks.ts): a refused tools/call is recorded and answered there.
    if (requests.length > 0) {
      const admitted = admitToolCalls(ctx, target, requests, isBatch, tap, () => recordRequestSide(undefined), reply);
      if (admitted !== true && !(await admitted)) return reply;
    }

    // Calls in flight per workspace and per server: past a limit the calls are answered at once
    // (and recorded as failed) rather than queued behind another tenant's hanging ones.
    let releaseCalls: (() => void) | undefined;
    if (requests.length > 0) {
      const admitted = ctx.admission.admitCalls(target);
      if ('failure' in admitted) {
        await recordRequestSide(undefined);
        return sendFailure(reply, tap, requests, isBatch, admitted.failure, proxyAnswers);
      }
      releaseCalls = admitted.release;
      reply.raw.once('close', releaseCalls);
    }

    if (!sessionFromAnswer) {
      const journaled = recordRequestSide(undefined);
      if (journaled) await journaled;
    }
    // Awaited only when a stored header names a workspace key: an await of a value is a promise more.
    const stored = ctx.workspaceKeys.headersFor(target.workspaceId, target.headers, target.url);
    let upstreamHeaders = upstreamRequestHeaders(
      request.headers,
      stored instanceof Promise ? await stored : stored,
      claims?.upstreamSessionId,
    );
    if (target.oauth) upstreamHeaders = await ctx.upstreamTokens.headersFor(target.serverId, upstreamHeaders);
    if (requests.length === 1 && !isBatch) forwardOwnSpan(upstreamHeaders, target.serverId, requests[0]);
    if (order.earlierStreams) await order.earlierStreams;
    let upstream;
    try {
      upstream = await sendUpstream(ctx, target.url, method, upstreamHeaders, body, abort, timeoutMs);
      // An OAuth server refused its access token (revoked, expired early): one refresh, one retry.
      // The refused request did nothing upstream, so sending it again is safe.
      const refused = upstreamHeaders.authorization;
      if (upstream.statusCode === 401 && target.oauth && refused) {
        // Drained, not destroyed: a small body, and the connection stays reusable.
        upstream.body.once('error', () => undefined).resume();
        const token = await ctx.upstreamTokens.afterRefusal(target.serverId, refused.slice('Bearer '.length));
        if (token) upstreamHeaders = { ...upstreamHeaders, authorization: `Bearer ${token}` };
        else delete upstreamHeaders.authorization;
        upstream = await sendUpstream(ctx, target.url, method, upstreamHeaders, body, abort, timeoutMs);
      }
    } catch (error) {
      order.streamOpened?.();
      await recordRequestSide(undefined);
      if (abort.aborted) return reply;
      return sendFailure(reply, tap, requests, isBatch, describeFailure(error, timeoutMs), proxyAnswers);
    }

    order.streamOpened?.();
    const sessionHeader = upstream.headers['mcp-session-id'];
    const journaled = recordRequestSide(typeof sessionHeader === 'string' ? sessionHeader : undefined);
    if (journaled) await journaled;
    return relayAnswer(
      ctx,
      { method, request, reply, target, tap, requests, isBatch, proxyAnswers, timeoutMs, speaksJsonRpc },
      upstream,
    );
  }

  return forward;
}

// Module functions rather than closures made anew on every exchange.
function hasMethod(messages: JsonRpcMessage[], method: string): boolean {
  for (const message of messages) if (message.method === method) return true;
  return false;
}

function sendUpstream(
  ctx: ProxyContext,
  url: string,
  method: Method,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: ExchangeAbort,
  timeoutMs: number,
) {
  return ctx.outbound.request(url, {
    method,
    headers,
    body: body ?? null,
    signal,
    headersTimeoutMs: timeoutMs,
    // A GET stream may stay quiet for long (its idle limit is the relay's); a POST answer may not.
    bodyTimeoutMs: method === 'GET' ? 0 : timeoutMs,
    longLived: method === 'GET',
  });
}

/**
 * The exchanges as Fastify routes: what app.inject, and any request the raw path leaves to Fastify
 * (the app closing, an unusual URL or content type: rawExchange.ts), reach.
 */
export function streamableHttpRoutes(forward: Forward): FastifyPluginAsync {
  return (scope) => {
    // warn: per-request info logs would write the proxy key (a capability) and cost the hot path.
    // No security headers on the proxy's URLs (http/securityHeaders.ts).
    const options = { logLevel: 'warn' as const, schema: { hide: true } };
    // The reply is the handler's result, as before: Fastify then knows the answer is under way.
    scope.post<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) =>
      forward('POST', request, reply).then(() => reply),
    );
    scope.get<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) =>
      forward('GET', request, reply).then(() => reply),
    );
    scope.delete<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) =>
      forward('DELETE', request, reply).then(() => reply),
    );
    return Promise.resolve();
  };
}
