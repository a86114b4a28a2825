import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ProxyContext } from './context';
import { agentFingerprint, agentResponseHeaders, upstreamRequestHeaders } from './headers';
import { parseMessages, requestsIn, type JsonRpcMessage } from './jsonRpc';
import { validateBody } from './requestValidation';
import { chargeRead } from './inboundGate';
import { MessageTap } from './messageTap';
import { isTooLarge, relayJson, relayRaw, relaySse } from './responseRelay';
import { describeFailure, errorResponse, httpFailure, httpRejection, notMcpFailure, rejectionDetail, UpstreamErrorCode, type UpstreamFailure } from './upstreamErrors';
import { Readable } from 'node:stream';
import { admitToolCalls } from './accessHooks';
import { findTarget } from './proxyTarget';
import { forwardOwnSpan, resolveSession } from './sessionResolution';
import { SEALED_PREFIX } from './sessionSeal';

// The Streamable HTTP transport (2025-03-26, 2025-06-18, 2025-11-25 with sessions; 2026-07-28
// stateless) at /mcp/{proxyKey}: POST, GET and DELETE go to the upstream over the keep-alive
// pool; the answer streams back as it arrives.
type Method = 'POST' | 'GET' | 'DELETE';

function sendFailure(reply: FastifyReply, tap: MessageTap, requests: JsonRpcMessage[], isBatch: boolean, failure: UpstreamFailure, proxyAnswers: JsonRpcMessage[] = []): FastifyReply {
  const upstreamErrors = requests.map((r) => errorResponse(r.id ?? null, failure));
  for (const error of upstreamErrors) tap.fromServer(error, 0);
  tap.commitJournal();
  const errors = [...upstreamErrors, ...proxyAnswers];
  // A JSON-RPC error in a 200 is what MCP clients surface as the failed call's error.
  if (errors.length > 0) return reply.status(200).type('application/json').send(isBatch ? errors : errors[0]);
  return reply.status(502).type('application/json').send(errorResponse(null, failure));
}

/** Reads a whole (bounded) body; undefined when it is larger than `limit`. */
async function readBounded(body: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Servers whose JSON answers proved to be JSON-RPC: their later answers stream without the check. */
const MAX_VERIFIED = 10_000;

export function streamableHttpRoutes(ctx: ProxyContext): FastifyPluginAsync {
  const { config } = ctx.app;
  const speaksJsonRpc = new Set<string>();

  async function forward(method: Method, request: FastifyRequest<{ Params: { proxyKey: string } }>, reply: FastifyReply) {
    const target = await findTarget(ctx, request, reply, request.params.proxyKey);
    if (!target) return reply;
    // A sealed session id (sessionSeal.ts) carries the upstream's id; one that does not open here
    // is a session no instance knows: 404, which makes an SDK client initialize again.
    const sentSessionId = typeof request.headers['mcp-session-id'] === 'string' ? request.headers['mcp-session-id'] : undefined;
    const claims = sentSessionId?.startsWith(SEALED_PREFIX) ? ctx.sessionSeal.open(target.serverId, sentSessionId) : null;
    if (sentSessionId?.startsWith(SEALED_PREFIX) && !claims) {
      return reply.status(404).type('application/json').send({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    }
    const upstreamSessionId = claims?.upstreamSessionId ?? sentSessionId;
    const forwardedHeaders = claims ? { ...request.headers, 'mcp-session-id': claims.upstreamSessionId } : request.headers;
    const received = method === 'POST' ? (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)) : undefined;
    if (received && !chargeRead(ctx, request, reply, target.workspaceId, received.length)) return reply;
    // Checked before anything travels: only valid items reach the upstream (requestValidation.ts).
    const validated = received ? validateBody(received) : null;
    const proxyAnswers = validated?.rejected ?? [];
    if (validated && validated.forward === null) {
      return reply.status(400).type('application/json').send(validated.isBatch ? proxyAnswers : proxyAnswers[0]);
    }
    const body = validated?.forward ?? undefined;
    const messages = validated?.valid ?? [];
    const isBatch = validated?.isBatch ?? false;
    const text = body && proxyAnswers.length === 0 ? body.toString('utf8') : '';
    const requests = requestsIn(messages);
    const tap = new MessageTap(target, ctx.recorder, ctx.events, ctx.rewriter());
    tap.expectRequests(requests);

    const timeoutMs = target.timeoutMs ?? config.upstreamTimeoutMs;
    const abort = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    if (method === 'GET') {
      // Streams per session are capped: an agent that opens them in a loop holds its own places only.
      const sent = request.headers['mcp-session-id'];
      const releaseStream = ctx.admission.openStream(`${target.serverId}\u0001${typeof sent === 'string' ? `s:${sent}` : `a:${agentFingerprint(request)}`}`);
      if (!releaseStream) {
        const limit = ctx.admission.streamLimit;
        const failure: UpstreamFailure = { code: UpstreamErrorCode.tooManyStreams, reason: 'tooManyStreams', message: `Too many open streams for this session (limit ${limit}); close one first` };
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
    const recordRequestSide = (responseSessionId: string | undefined) => {
      if (requestRecorded) return;
      requestRecorded = true;
      tap.session = resolveSession(ctx, target, request, messages, responseSessionId, upstreamSessionId, claims);
      const single = messages.length === 1 && !isBatch && text !== '';
      for (const message of messages) tap.record('client_to_server', message, single ? body!.length : () => Buffer.byteLength(JSON.stringify(message)), single ? text : undefined, receivedAtMs);
      // The request's rows reach the journal's file before any answer can reach the agent.
      tap.commitJournal();
    };
    // Only an initialize without a session id learns its session from the upstream's answer (its
    // mcp-session-id header); every other exchange is recorded before it is forwarded, so its
    // request is journaled and in its session's order before anything the upstream sends back.
    const sessionFromAnswer = upstreamSessionId === undefined && messages.some((message) => message.method === 'initialize');
    // The monthly quota (accessHooks.ts): a refused tools/call is recorded and answered there.
    if (requests.length > 0 && !(await admitToolCalls(ctx, target, requests, isBatch, tap, () => recordRequestSide(undefined), reply))) return reply;

    // Calls in flight per workspace and per server: past a limit the calls are answered at once
    // (and recorded as failed) rather than queued behind another tenant's hanging ones.
    let releaseCalls: (() => void) | undefined;
    if (requests.length > 0) {
      const admitted = ctx.admission.admitCalls(target);
      if ('failure' in admitted) {
        recordRequestSide(undefined);
        return sendFailure(reply, tap, requests, isBatch, admitted.failure, proxyAnswers);
      }
      releaseCalls = admitted.release;
      reply.raw.once('close', releaseCalls);
    }

    if (!sessionFromAnswer) recordRequestSide(undefined);
    const upstreamHeaders = upstreamRequestHeaders(forwardedHeaders, await ctx.workspaceKeys.headersFor(target.workspaceId, target.headers));
    if (requests.length === 1 && !isBatch) forwardOwnSpan(upstreamHeaders, target.serverId, requests[0]);
    let upstream;
    try {
      upstream = await ctx.outbound.request(target.url, {
        method,
        headers: upstreamHeaders,
        body: body ?? null,
        signal: abort.signal,
        headersTimeoutMs: timeoutMs,
        // A GET stream may stay quiet for long (its idle limit is the relay's); a POST answer may not.
        bodyTimeoutMs: method === 'GET' ? 0 : timeoutMs,
        longLived: method === 'GET',
      });
    } catch (error) {
      recordRequestSide(undefined);
      if (abort.signal.aborted) return reply;
      return sendFailure(reply, tap, requests, isBatch, describeFailure(error, timeoutMs), proxyAnswers);
    }

    const sessionHeader = upstream.headers['mcp-session-id'];
    recordRequestSide(typeof sessionHeader === 'string' ? sessionHeader : undefined);
    const status = upstream.statusCode;
    const contentType = String(upstream.headers['content-type'] ?? '');
    const isSse = contentType.startsWith('text/event-stream');
    const isJson = contentType.includes('json');
    if (method === 'DELETE' && tap.session && status < 300) ctx.recorder.endSession(tap.session);

    if (status >= 500 && !isJson && !isSse) {
      upstream.body.resume();
      return sendFailure(reply, tap, requests, isBatch, httpFailure(status), proxyAnswers);
    }
    const declared = Number(upstream.headers['content-length']);
    if (!isSse && Number.isFinite(declared) && declared > config.proxyResponseLimitBytes) {
      upstream.body.destroy();
      return sendFailure(reply, tap, requests, isBatch, { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' }, proxyAnswers);
    }

    if (proxyAnswers.length > 0 && !isJson && !isSse) {
      // Only notifications or responses went on (202), or a body we cannot merge into: the
      // refused items' answers are the batch.
      upstream.body.resume();
      return reply.status(status < 300 ? 200 : status).type('application/json').send(proxyAnswers);
    }

    // Only MCP goes back to the agent (docs/security.md, "Private networks"): the proxy is not a
    // relay for whatever answers at an upstream URL. A body that is neither SSE nor JSON, or JSON
    // that is not JSON-RPC (checked whole until the server has once answered with JSON-RPC), is
    // replaced by a JSON-RPC error; an empty body (202 for notifications, 405 for GET) passes.
    let upstreamBody: Readable = upstream.body;
    if (!isSse && (!isJson || !speaksJsonRpc.has(`${target.serverId} ${target.url}`))) {
      let whole: Buffer | undefined;
      try {
        whole = await readBounded(upstream.body, config.proxyResponseLimitBytes);
      } catch (error) {
        return sendFailure(reply, tap, requests, isBatch, describeFailure(error, config.upstreamTimeoutMs));
      }
      if (!whole) return sendFailure(reply, tap, requests, isBatch, { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' });
      if (whole.length > 0 && (!isJson || parseMessages(whole.toString('utf8')).length === 0)) {
        return sendFailure(reply, tap, requests, isBatch, notMcpFailure(status, contentType));
      }
      if (isJson && whole.length > 0) {
        if (speaksJsonRpc.size >= MAX_VERIFIED) speaksJsonRpc.clear();
        speaksJsonRpc.add(`${target.serverId} ${target.url}`);
      }
      upstreamBody = Readable.from([whole]);
    }

    reply.hijack();
    const res = reply.raw;
    const headers = agentResponseHeaders(upstream.headers, !isSse && !(isJson && (tap.rewritesToolsList || proxyAnswers.length > 0)));
    // The agent gets the sealed id, never the upstream's own (any instance can open it).
    const upstreamId = headers['mcp-session-id'];
    if (upstreamId) {
      headers['mcp-session-id'] = ctx.sessionSeal.seal(target.serverId, {
        recordedSessionId: tap.session?.row.id ?? null,
        upstreamSessionId: upstreamId,
        startedAtMs: tap.session?.clockSeqBaseMs ?? 0,
      });
    }
    res.writeHead(status, headers);
    if (isSse) res.flushHeaders();
    const onFailure = (error: unknown): UpstreamFailure =>
      isTooLarge(error) ? { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' } : describeFailure(error, timeoutMs);
    if (isSse) {
      await relaySse(upstreamBody, res, tap, {
        maxEventBytes: config.proxyResponseLimitBytes,
        onFailure,
        proxyAnswers,
        keepAliveMs: config.streamKeepAliveMs,
        idleMs: method === 'GET' ? config.streamIdleMs : 0,
      });
      return reply;
    }
    const answered = isJson ? await relayJson(upstreamBody, res, tap, config.proxyResponseLimitBytes, onFailure, proxyAnswers) : [];
    const head = isJson ? '' : await relayRaw(upstreamBody, res, config.proxyResponseLimitBytes);
    // The agent's requests that this answer left unanswered got it as their answer: an HTTP error
    // (400 for a session id an upstream forgot when it restarted, 401, 404…), or a JSON body that
    // did not include them. Their calls end now, as the agent saw it, not as a later timeout.
    const unanswered = tap.unanswered();
    if (unanswered.length > 0 && (status >= 400 || (isJson && status < 300))) {
      const failure = status >= 400 ? httpRejection(status, rejectionDetail(answered, head)) : { ...httpFailure(status), message: 'The tool server answered without a response to this request' };
      for (const id of unanswered) tap.fromServer(errorResponse(id, failure), 0);
    }
    // A session the upstream no longer knows (the Streamable HTTP spec's 404) has ended.
    if (status === 404 && tap.session && typeof request.headers['mcp-session-id'] === 'string') ctx.recorder.endSession(tap.session);
    return reply;
  }

  return async (scope) => {
    // warn: per-request info logs would write the proxy key (a capability) and cost the hot path.
    // No security headers (helmet): they protect pages a browser renders, and an agent's JSON-RPC
    // answer is none — helmet built its CSP header anew for every call (1.4 % of the proxy's CPU).
    const options = { logLevel: 'warn' as const, schema: { hide: true }, helmet: false as const };
    scope.post<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) => forward('POST', request, reply));
    scope.get<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) => forward('GET', request, reply));
    scope.delete<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) => forward('DELETE', request, reply));
  };
}
