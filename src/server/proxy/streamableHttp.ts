import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionOrigin, RecordedSession } from '../recording/recorder';
import type { ProxyContext } from './context';
import { agentFingerprint, agentResponseHeaders, isOriginAllowed, upstreamRequestHeaders } from './headers';
import { parseMessages, requestsIn, type JsonRpcMessage } from './jsonRpc';
import { MessageTap } from './messageTap';
import { isTooLarge, relayJson, relayRaw, relaySse } from './responseRelay';
import { describeFailure, errorResponse, httpFailure, UpstreamErrorCode, type UpstreamFailure } from './upstreamErrors';
import type { UpstreamTarget } from './upstreamDirectory';

// The Streamable HTTP transport (2025-03-26, 2025-06-18, 2025-11-25 with sessions; 2026-07-28
// stateless) at /mcp/{proxyKey}: POST, GET and DELETE go to the upstream over the keep-alive
// pool; the answer streams back as it arrives.
type Method = 'POST' | 'GET' | 'DELETE';

export function findTarget(ctx: ProxyContext, request: FastifyRequest, reply: FastifyReply, key: string): Promise<UpstreamTarget | null> | null {
  if (!isOriginAllowed(request, ctx.app.config.publicUrl)) {
    void reply.status(403).send({ message: 'Origin not allowed', code: 'forbidden' });
    return null;
  }
  return ctx.directory.get(key).then((target) => {
    if (!target) void reply.status(404).send({ message: 'Unknown proxy URL', code: 'not_found' });
    return target;
  });
}

export function originOf(target: UpstreamTarget): SessionOrigin {
  return { workspaceId: target.workspaceId, serverId: target.serverId, serverName: target.serverName };
}

/** clientInfo and trace id carried in params._meta (2026-07-28) or by initialize (earlier versions). */
function clientIdentity(messages: JsonRpcMessage[], request: FastifyRequest) {
  let clientName: string | null = null;
  let clientVersion: string | null = null;
  let traceId: string | null = null;
  let protocolVersion = typeof request.headers['mcp-protocol-version'] === 'string' ? request.headers['mcp-protocol-version'] : null;
  const header = request.headers.traceparent;
  let traceparent = typeof header === 'string' ? header : null;
  for (const message of messages) {
    const params = message.params ?? {};
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const info = (message.method === 'initialize' ? params.clientInfo : undefined) ?? meta.clientInfo ?? meta['io.modelcontextprotocol/clientInfo'];
    if (info && typeof info === 'object') {
      const { name, version } = info as { name?: unknown; version?: unknown };
      if (typeof name === 'string') clientName = name;
      if (typeof version === 'string') clientVersion = version;
    }
    if (typeof meta.traceparent === 'string') traceparent = meta.traceparent;
    if (message.method === 'initialize' && typeof params.protocolVersion === 'string') protocolVersion = params.protocolVersion;
  }
  const traceMatch = traceparent ? /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/i.exec(traceparent) : null;
  if (traceMatch) traceId = traceMatch[1].toLowerCase();
  return { clientName, clientVersion, traceId, protocolVersion };
}

function resolveSession(ctx: ProxyContext, target: UpstreamTarget, request: FastifyRequest, messages: JsonRpcMessage[], responseSessionId: string | undefined): RecordedSession | null {
  if (!ctx.recorder.isEnabled()) return null;
  const sent = request.headers['mcp-session-id'];
  const mcpSessionId = typeof sent === 'string' ? sent : responseSessionId;
  if (!mcpSessionId && messages.length === 0) return null;
  if (mcpSessionId) {
    const known = ctx.recorder.sessionByMcpId(target.serverId, mcpSessionId);
    if (known) return known;
    return ctx.recorder.startSession(originOf(target), { transport: 'streamable-http', mcpSessionId, ...clientIdentity(messages, request) });
  }
  return ctx.recorder.inferSession(originOf(target), { transport: 'streamable-http', clientKey: agentFingerprint(request), ...clientIdentity(messages, request) });
}

function sendFailure(reply: FastifyReply, tap: MessageTap, requests: JsonRpcMessage[], isBatch: boolean, failure: UpstreamFailure): FastifyReply {
  const errors = requests.map((r) => errorResponse(r.id ?? null, failure));
  for (const error of errors) tap.fromServer(error, 0);
  // A JSON-RPC error in a 200 is what MCP clients surface as the failed call's error.
  if (errors.length > 0) return reply.status(200).type('application/json').send(isBatch ? errors : errors[0]);
  return reply.status(502).type('application/json').send(errorResponse(null, failure));
}

export function streamableHttpRoutes(ctx: ProxyContext): FastifyPluginAsync {
  const { config } = ctx.app;

  async function forward(method: Method, request: FastifyRequest<{ Params: { proxyKey: string } }>, reply: FastifyReply) {
    const target = await findTarget(ctx, request, reply, request.params.proxyKey);
    if (!target) return reply;
    const body = method === 'POST' && Buffer.isBuffer(request.body) ? request.body : undefined;
    const text = body?.toString('utf8') ?? '';
    const messages = text ? parseMessages(text) : [];
    const isBatch = text.trimStart().startsWith('[');
    const requests = requestsIn(messages);
    const tap = new MessageTap(target, ctx.recorder, ctx.events, ctx.rewriter());
    tap.expectRequests(requests);

    const abort = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    if (method === 'GET') {
      // From the start: an upstream may hold a GET stream's headers back until its first event.
      ctx.pushStreams.add(reply.raw);
      reply.raw.once('close', () => ctx.pushStreams.delete(reply.raw));
    }
    const recordRequestSide = (responseSessionId: string | undefined) => {
      tap.session = resolveSession(ctx, target, request, messages, responseSessionId);
      const single = messages.length === 1 && !isBatch;
      for (const message of messages) tap.record('client_to_server', message, single ? body!.length : Buffer.byteLength(JSON.stringify(message)), single ? text : undefined);
    };

    let upstream;
    try {
      upstream = await ctx.outbound.request(target.url, {
        method,
        headers: upstreamRequestHeaders(request.headers, target.headers),
        body: body ?? null,
        signal: abort.signal,
        headersTimeoutMs: config.upstreamTimeoutMs,
        // A GET stream may stay quiet for long; a POST answer may not.
        bodyTimeoutMs: method === 'GET' ? 0 : config.upstreamTimeoutMs,
      });
    } catch (error) {
      recordRequestSide(undefined);
      if (abort.signal.aborted) return reply;
      return sendFailure(reply, tap, requests, isBatch, describeFailure(error, config.upstreamTimeoutMs));
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
      return sendFailure(reply, tap, requests, isBatch, httpFailure(status));
    }
    const declared = Number(upstream.headers['content-length']);
    if (!isSse && Number.isFinite(declared) && declared > config.proxyResponseLimitBytes) {
      upstream.body.destroy();
      return sendFailure(reply, tap, requests, isBatch, { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' });
    }

    reply.hijack();
    const res = reply.raw;
    res.writeHead(status, agentResponseHeaders(upstream.headers, !isSse && !(isJson && tap.rewritesToolsList)));
    if (isSse) res.flushHeaders();
    const onFailure = (error: unknown): UpstreamFailure =>
      isTooLarge(error) ? { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' } : describeFailure(error, config.upstreamTimeoutMs);
    if (isSse) await relaySse(upstream.body, res, tap, config.proxyResponseLimitBytes, onFailure);
    else if (isJson) await relayJson(upstream.body, res, tap, config.proxyResponseLimitBytes, onFailure);
    else await relayRaw(upstream.body, res, config.proxyResponseLimitBytes);
    return reply;
  }

  return async (scope) => {
    // warn: per-request info logs would write the proxy key (a capability) and cost the hot path.
    const options = { logLevel: 'warn' as const, schema: { hide: true } };
    scope.post<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) => forward('POST', request, reply));
    scope.get<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) => forward('GET', request, reply));
    scope.delete<{ Params: { proxyKey: string } }>('/mcp/:proxyKey', options, (request, reply) => forward('DELETE', request, reply));
  };
}
