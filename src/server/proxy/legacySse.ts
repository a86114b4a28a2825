import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RecordedSession } from '../recording/recorder';
import type { ProxyContext } from './context';
import { agentFingerprint, agentResponseHeaders, agentTraceparentHeader, upstreamRequestHeaders } from './headers';
import { ExchangeAbort } from '../net/exchangeAbort';
import { requestsIn } from './jsonRpc';
import { MessageTap } from './messageTap';
import { validateBody } from './requestValidation';
import { chargeRead } from './inboundGate';
import { relayRaw, relaySse } from './responseRelay';
import { serializeSseEvent } from './sseParser';
import { findTarget, originOf } from './proxyTarget';
import { describeFailure, errorResponse, httpFailure } from './upstreamErrors';
import { admitToolCalls } from './accessHooks';
import { forwardOwnSpan } from './sessionResolution';
import type { UpstreamTarget } from './upstreamDirectory';

// The legacy HTTP+SSE transport (2024-11-05). GET {proxyUrl}/sse opens the upstream's stream;
// its `endpoint` event is rewritten to our own message path, whose POSTs go to the upstream's
// message URL. Answers travel back on the stream, tapped like any SSE response.
interface LegacyStream {
  target: UpstreamTarget;
  upstreamMessageUrl: string;
  session: RecordedSession | null;
  tap: MessageTap;
  /** The agent's end of the stream, where answers — and the proxy's own errors — are sent. */
  res: ServerResponse;
}

export function legacySseRoutes(ctx: ProxyContext): FastifyPluginAsync {
  const streams = new Map<string, LegacyStream>();
  const { config } = ctx.app;

  async function openStream(request: FastifyRequest<{ Params: { proxyKey: string } }>, reply: FastifyReply) {
    const target = await findTarget(ctx, request, reply, request.params.proxyKey);
    if (!target) return reply;
    const abort = new ExchangeAbort();
    reply.raw.on('close', () => abort.abort());
    let upstream;
    try {
      upstream = await ctx.outbound.request(target.url, {
        method: 'GET',
        headers: {
          ...upstreamRequestHeaders(request.headers, await storedHeaders(ctx, target, target.url)),
          accept: 'text/event-stream',
        },
        signal: abort,
        headersTimeoutMs: config.upstreamTimeoutMs,
        bodyTimeoutMs: 0,
        longLived: true,
      });
    } catch (error) {
      return reply
        .status(502)
        .type('application/json')
        .send(errorResponse(null, describeFailure(error, config.upstreamTimeoutMs)));
    }
    if (
      upstream.statusCode !== 200 ||
      !String(upstream.headers['content-type'] ?? '').startsWith('text/event-stream')
    ) {
      upstream.body.resume();
      return reply
        .status(502)
        .type('application/json')
        .send(errorResponse(null, httpFailure(upstream.statusCode)));
    }
    // The session id the agent holds on this transport (its message endpoint's ?session=): recorded
    // as the session's MCP id, so the session's spans carry the id the agent's own spans carry.
    const streamId = randomBytes(18).toString('base64url');
    const session = ctx.recorder.isEnabled()
      ? ctx.recorder.startSession(originOf(target), {
          transport: 'sse',
          mcpSessionId: streamId,
          clientKey: agentFingerprint(request),
          platformKeyId: request.platformKeyId,
        })
      : null;
    const tap = new MessageTap(target, ctx.recorder, ctx.events, ctx.rewriter(), session);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...agentResponseHeaders(upstream.headers),
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    ctx.pushStreams.add(res);
    res.once('close', () => ctx.pushStreams.delete(res));
    try {
      await relaySse(upstream.body, res, tap, {
        maxEventBytes: config.proxyResponseLimitBytes,
        onFailure: (error) => describeFailure(error, config.upstreamTimeoutMs),
        keepAliveMs: config.streamKeepAliveMs,
        rewriteEvent: (event) => {
          if (event.event !== 'endpoint') return event;
          const upstreamMessageUrl = new URL(event.data.trim(), target.url);
          // The upstream may only point at itself: anything else would let it steer the proxy.
          if (upstreamMessageUrl.origin !== new URL(target.url).origin) return null;
          streams.set(streamId, { target, upstreamMessageUrl: upstreamMessageUrl.toString(), session, tap, res });
          return { ...event, data: `/mcp/${target.proxyKey}/messages?session=${streamId}` };
        },
      });
    } finally {
      streams.delete(streamId);
      if (session) ctx.recorder.endSession(session);
    }
    return reply;
  }

  async function postMessage(
    // No schema checks the query: a repeated ?session= arrives as an array.
    request: FastifyRequest<{ Params: { proxyKey: string }; Querystring: { session?: string | string[] } }>,
    reply: FastifyReply,
  ) {
    const target = await findTarget(ctx, request, reply, request.params.proxyKey);
    if (!target) return reply;
    const stream = streams.get(String(request.query.session ?? ''));
    if (!stream || stream.target.serverId !== target.serverId)
      return reply.status(404).send({ message: 'Unknown or closed SSE session', code: 'not_found' });
    const received = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (!chargeRead(ctx, request, reply, target.workspaceId, received.length)) return reply;
    // Checked before anything travels, as on Streamable HTTP (requestValidation.ts): invalid items
    // are answered by the proxy and never forwarded, so no call runs unrecorded.
    const validated = validateBody(received);
    if (validated.forward === null) {
      const answer = validated.isBatch ? validated.rejected : validated.rejected[0];
      return reply.status(400).type('application/json').send(answer);
    }
    const body = validated.forward;
    const text = validated.text || body.toString('utf8');
    const messages = validated.valid;
    const { isBatch } = validated;
    for (const rejected of validated.rejected) {
      // This transport answers on the stream: the refusals travel there, recorded as the agent sees them.
      stream.tap.fromServer(rejected, 0);
      stream.res.write(serializeSseEvent({ event: 'message', data: JSON.stringify(rejected) }));
    }
    const requests = requestsIn(messages);
    // The agent's `traceparent` HTTP header counts as on Streamable HTTP.
    const traceparentHeader = agentTraceparentHeader(request);
    stream.tap.expectRequests(requests, traceparentHeader);
    // As on Streamable HTTP, the request's rows reach the journal's file before it travels: a POST
    // accepted (202) is never lost by a crash after it. A large message waiting for its redaction
    // off the event loop is committed once it is recorded (messageRecording.ts).
    const recordRequestSide = () => {
      for (const message of messages)
        stream.tap.record(
          'client_to_server',
          message,
          messages.length === 1 ? body.length : () => Buffer.byteLength(JSON.stringify(message)),
          messages.length === 1 && !isBatch ? text : undefined,
          undefined,
          traceparentHeader,
        );
      return stream.tap.commitJournal();
    };
    // The monthly quota (accessHooks.ts): a refused tools/call is recorded and answered there.
    if (
      requests.length > 0 &&
      !(await admitToolCalls(ctx, target, requests, isBatch, stream.tap, recordRequestSide, reply))
    )
      return reply;
    const journaled = recordRequestSide();
    if (journaled) await journaled;
    let upstream;
    try {
      // The message URL the upstream announced: the key must be allowed where it points.
      const upstreamHeaders = upstreamRequestHeaders(
        request.headers,
        await storedHeaders(ctx, target, stream.upstreamMessageUrl),
      );
      // The upstream's parent span is the one exported for this request (the session's id is the stream's).
      if (requests.length === 1 && !isBatch)
        forwardOwnSpan(upstreamHeaders, target.serverId, requests[0], String(request.query.session));
      upstream = await ctx.outbound.request(stream.upstreamMessageUrl, {
        method: 'POST',
        headers: upstreamHeaders,
        body,
        headersTimeoutMs: config.upstreamTimeoutMs,
      });
    } catch (error) {
      const failure = describeFailure(error, config.upstreamTimeoutMs);
      const errors = requests.map((r) => errorResponse(r.id, failure));
      if (errors.length === 0 || stream.res.destroyed)
        return reply.status(502).type('application/json').send(errorResponse(null, failure));
      // Answers of this transport travel on the stream: the agent gets each request's error there,
      // as if the upstream had answered it, and the POST itself is accepted.
      for (const e of errors) {
        stream.tap.fromServer(e, 0);
        stream.res.write(serializeSseEvent({ event: 'message', data: JSON.stringify(e) }));
      }
      return reply.status(202).type('text/plain').send('Accepted');
    }
    reply.hijack();
    reply.raw.writeHead(upstream.statusCode, agentResponseHeaders(upstream.headers, true));
    await relayRaw(upstream.body, reply.raw, config.proxyResponseLimitBytes);
    return reply;
  }

  return (scope) => {
    const options = { logLevel: 'warn' as const, schema: { hide: true } };
    scope.get<{ Params: { proxyKey: string } }>('/mcp/:proxyKey/sse', options, openStream);
    scope.post<{ Params: { proxyKey: string }; Querystring: { session?: string | string[] } }>(
      '/mcp/:proxyKey/messages',
      options,
      postMessage,
    );
    return Promise.resolve();
  };
}

/** The server's stored headers with workspace keys filled in, and its OAuth access token when it has one. */
async function storedHeaders(ctx: ProxyContext, target: UpstreamTarget, destination: string) {
  const headers = await ctx.workspaceKeys.headersFor(target.workspaceId, target.headers, destination);
  return target.oauth ? ctx.upstreamTokens.headersFor(target.serverId, headers) : headers;
}
