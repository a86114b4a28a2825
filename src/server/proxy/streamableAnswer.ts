import { Readable } from 'node:stream';
import type { ProxyReply, ProxyRequest } from './exchangeIo';
import type { ProxyContext } from './context';
import { agentResponseHeaders } from './headers';
import { parseMessages, type JsonRpcMessage } from './jsonRpc';
import type { MessageTap } from './messageTap';
import { isTooLarge, relayJson, relayRaw, relaySse } from './responseRelay';
import {
  describeFailure,
  errorResponse,
  httpFailure,
  httpRejection,
  notMcpFailure,
  rejectionDetail,
  UpstreamErrorCode,
  type UpstreamFailure,
} from './upstreamErrors';
import type { UpstreamTarget } from './upstreamDirectory';
import type { OutboundResponse } from '../net/outboundClient';

// The upstream's answer to one Streamable HTTP exchange (streamableHttp.ts sends the request): an
// HTTP failure, an oversized or non-MCP body become the JSON-RPC errors an MCP client shows; the
// rest streams back to the agent (SSE, JSON or raw) with the session id sealed, and the requests
// it left unanswered end as the agent saw them.

export type Method = 'POST' | 'GET' | 'DELETE';

/** One exchange, as streamableHttp.ts prepared it. */
export interface Exchange {
  method: Method;
  request: ProxyRequest;
  reply: ProxyReply;
  target: UpstreamTarget;
  tap: MessageTap;
  requests: JsonRpcMessage[];
  isBatch: boolean;
  /** The proxy's own answers to the items it refused (requestValidation.ts). */
  proxyAnswers: JsonRpcMessage[];
  timeoutMs: number;
  /** Servers whose JSON answers proved to be JSON-RPC (see MAX_VERIFIED). */
  speaksJsonRpc: Set<string>;
}

/** Answers each of the agent's requests with the failure (a JSON-RPC error), recorded as its call's end. */
export async function sendFailure(
  reply: ProxyReply,
  tap: MessageTap,
  requests: JsonRpcMessage[],
  isBatch: boolean,
  failure: UpstreamFailure,
  proxyAnswers: JsonRpcMessage[] = [],
): Promise<ProxyReply> {
  const upstreamErrors = requests.map((r) => errorResponse(r.id ?? null, failure));
  for (const error of upstreamErrors) tap.fromServer(error, 0);
  // Awaited only when a message of the session still waits for its redaction (a large one).
  const journaled = tap.commitJournal();
  if (journaled) await journaled;
  const errors = [...upstreamErrors, ...proxyAnswers];
  // A JSON-RPC error in a 200 is what MCP clients surface as the failed call's error.
  if (errors.length > 0)
    return reply
      .status(200)
      .type('application/json')
      .send(isBatch ? errors : errors[0]);
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

/** Relays the upstream's answer to the agent. */
export async function relayAnswer(
  ctx: ProxyContext,
  exchange: Exchange,
  upstream: OutboundResponse,
): Promise<ProxyReply> {
  const { method, request, reply, target, tap, requests, isBatch, proxyAnswers, timeoutMs } = exchange;
  const { config } = ctx.app;
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
    return sendFailure(
      reply,
      tap,
      requests,
      isBatch,
      { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' },
      proxyAnswers,
    );
  }

  if (proxyAnswers.length > 0 && !isJson && !isSse) {
    // Only notifications or responses went on (202), or a body we cannot merge into: the
    // refused items' answers are the batch.
    upstream.body.resume();
    return reply
      .status(status < 300 ? 200 : status)
      .type('application/json')
      .send(proxyAnswers);
  }

  // Only MCP goes back to the agent (docs/security.md, "Private networks"): the proxy is not a
  // relay for whatever answers at an upstream URL. A body that is neither SSE nor JSON, or JSON
  // that is not JSON-RPC (checked whole until the server has once answered with JSON-RPC), is
  // replaced by a JSON-RPC error; an empty body (202 for notifications, 405 for GET) passes.
  let upstreamBody: Readable = upstream.body;
  if (!isSse && (!isJson || !exchange.speaksJsonRpc.has(`${target.serverId} ${target.url}`))) {
    let whole: Buffer | undefined;
    try {
      whole = await readBounded(upstream.body, config.proxyResponseLimitBytes);
    } catch (error) {
      return sendFailure(reply, tap, requests, isBatch, describeFailure(error, config.upstreamTimeoutMs));
    }
    if (!whole)
      return sendFailure(reply, tap, requests, isBatch, {
        code: UpstreamErrorCode.tooLarge,
        reason: 'tooLarge',
        message: 'Tool server response too large',
      });
    if (whole.length > 0 && (!isJson || parseMessages(whole.toString('utf8')).length === 0)) {
      return sendFailure(reply, tap, requests, isBatch, notMcpFailure(status, contentType));
    }
    if (isJson && whole.length > 0) {
      if (exchange.speaksJsonRpc.size >= MAX_VERIFIED) exchange.speaksJsonRpc.clear();
      exchange.speaksJsonRpc.add(`${target.serverId} ${target.url}`);
    }
    upstreamBody = Readable.from([whole]);
  }

  reply.hijack();
  const res = reply.raw;
  const headers = agentResponseHeaders(
    upstream.headers,
    !isSse && !(isJson && (tap.rewritesToolsList || proxyAnswers.length > 0)),
  );
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
    isTooLarge(error)
      ? { code: UpstreamErrorCode.tooLarge, reason: 'tooLarge', message: 'Tool server response too large' }
      : describeFailure(error, timeoutMs);
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
  const answered = isJson
    ? await relayJson(upstreamBody, res, tap, config.proxyResponseLimitBytes, onFailure, proxyAnswers)
    : [];
  const head = isJson ? '' : await relayRaw(upstreamBody, res, config.proxyResponseLimitBytes);
  // The agent's requests that this answer left unanswered got it as their answer: an HTTP error
  // (400 for a session id an upstream forgot when it restarted, 401, 404…), or a JSON body that
  // did not include them. Their calls end now, as the agent saw it, not as a later timeout.
  // (null: a JSON answer the tap does not observe, whose requests' endings would change nothing.)
  const unanswered = answered === null ? [] : tap.unanswered();
  if (unanswered.length > 0 && (status >= 400 || (isJson && status < 300))) {
    const failure =
      status >= 400
        ? httpRejection(status, rejectionDetail(answered ?? [], head))
        : { ...httpFailure(status), message: 'The tool server answered without a response to this request' };
    for (const id of unanswered) tap.fromServer(errorResponse(id, failure), 0);
  }
  // A session the upstream no longer knows (the Streamable HTTP spec's 404) has ended.
  if (status === 404 && tap.session && typeof request.headers['mcp-session-id'] === 'string')
    ctx.recorder.endSession(tap.session);
  return reply;
}
