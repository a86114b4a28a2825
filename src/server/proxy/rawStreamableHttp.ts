import type { IncomingMessage } from 'node:http';
import { errorCodes } from 'fastify';
import { answerError } from '../http/answers';
import type { RawRoute } from '../http/rawRoutes';
import { fastifyTrustProxy } from '../http/trustedProxies';
import type { ProxyContext } from './context';
import { inboundGate } from './inboundGate';
import { RawReply, RawRequest, trustFunction, type RawSite } from './rawExchange';
import type { Method } from './streamableAnswer';
import type { Forward } from './streamableHttp';

// POST, GET and DELETE /mcp/{proxyKey} served below Fastify (http/rawRoutes.ts, issue 39): the
// same steps as the Fastify routes of plugin.ts's scope, in the same order — the inbound gate
// (before the body is read), the body read under the proxy's limit as Fastify's buffer parser
// reads it, then the one forward() of streamableHttp.ts; an error becomes the app's error answer.
// Only requests whose answer cannot differ are taken; anything else — another method (HEAD and
// OPTIONS included), a path Fastify's router would read differently (a trailing slash, a percent
// sign, a key longer than its maxParamLength, `#` or `;`), a content type its parser would refuse —
// goes to Fastify as before. docs/proxy.md, "Dispatch".

/** Fastify's content-type check passes these (a media type of two tokens, then parameters or nothing). */
const PLAIN_MEDIA_TYPE = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(?:;|$)/;
const PREFIX = '/mcp/';

/** The key of `/mcp/{key}` or `/mcp/{key}?…` when it is base64url (what keys are) within `maxLength`. */
export function plainProxyKey(url: string, maxLength: number): string | undefined {
  if (!url.startsWith(PREFIX)) return undefined;
  const query = url.indexOf('?', PREFIX.length);
  const end = query === -1 ? url.length : query;
  if (end === PREFIX.length || end - PREFIX.length > maxLength) return undefined;
  for (let i = PREFIX.length; i < end; i++) {
    const c = url.charCodeAt(i);
    const ok =
      (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 /* - */ || c === 95; /* _ */
    if (!ok) return undefined;
  }
  return url.slice(PREFIX.length, end);
}

export function rawStreamableHttp(ctx: ProxyContext, forward: Forward): RawRoute {
  const { app } = ctx;
  const site: RawSite = {
    trust: trustFunction(fastifyTrustProxy(app.config.trustProxy)),
    log: app.log,
    closing: () => app.rawRoutes.closing,
  };
  const gate = inboundGate(ctx);
  const limit = app.config.proxyBodyLimitBytes;
  const maxKeyLength = app.initialConfig.maxParamLength ?? 100;

  /** Fastify's answer to an error of the request (its error handler, after its handleError). */
  function fail(request: RawRequest, reply: RawReply, error: Error & { statusCode?: number }): void {
    if (reply.sent) {
      request.log.error({ err: error }, 'Promise errored, but reply.sent = true was set');
      return;
    }
    reply.clearBodyHeaders();
    answerError(error, request.log, reply);
  }

  function handle(method: Method, request: RawRequest, reply: RawReply): void {
    let exchange: Promise<unknown>;
    try {
      exchange = forward(method, request, reply);
    } catch (error) {
      fail(request, reply, error as Error);
      return;
    }
    exchange.catch((error: unknown) => fail(request, reply, error as Error));
  }

  /** Fastify's handleRequest and buffer parser (content-type-parser.js rawBody) for POST and DELETE. */
  function readBody(method: Method, req: IncomingMessage, request: RawRequest, reply: RawReply): void {
    const headers = req.headers;
    const length = headers['content-length'];
    if (
      headers['content-type'] === undefined &&
      headers['transfer-encoding'] === undefined &&
      (length === undefined || length === '0')
    ) {
      handle(method, request, reply);
      return;
    }
    const refuse = (error: Error & { statusCode?: number }) => {
      // The client may still be sending: the connection goes once answered (as Fastify does).
      reply.header('connection', 'close');
      fail(request, reply, error);
    };
    const declared = Number(length);
    if (declared > limit) {
      refuse(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onEnd);
    };
    function onData(chunk: Buffer) {
      received += chunk.length;
      if (received > limit) {
        stop();
        refuse(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      chunks.push(chunk);
    }
    function onEnd(error?: Error & { statusCode?: number }) {
      stop();
      if (error) {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
        refuse(error);
        return;
      }
      if (!Number.isNaN(declared) && received !== declared) {
        refuse(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      // A copy, as Fastify's parser makes: never a view of the socket's read buffer.
      request.body = Buffer.concat(chunks, received);
      handle(method, request, reply);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onEnd);
    req.resume();
  }

  return (req, res) => {
    const method = req.method;
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') return false;
    const proxyKey = plainProxyKey(req.url ?? '', maxKeyLength);
    if (proxyKey === undefined) return false;
    const contentType = req.headers['content-type'];
    if (contentType !== undefined && !PLAIN_MEDIA_TYPE.test(contentType)) return false;
    const request = new RawRequest(req, { proxyKey }, site);
    const reply = new RawReply(res, site);
    gate(request, reply, () => {
      if (method === 'GET') handle(method, request, reply);
      else readBody(method, req, request, reply);
    });
    return true;
  };
}
