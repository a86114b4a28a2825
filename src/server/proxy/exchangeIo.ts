import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AnswerReply } from '../http/answers';

// What the proxy's functions use of a request and of a reply. Fastify's objects have all of it
// (the legacy SSE routes, OPTIONS, and the Streamable HTTP routes under app.inject pass them as
// they are); the Streamable HTTP exchanges served below Fastify pass rawExchange.ts's light
// equivalents. Nothing else may be read: a field added here must be added there too.

export interface ProxyRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly params: { proxyKey: string };
  /** The body's bytes (POST); undefined without one. */
  readonly body: unknown;
  readonly raw: IncomingMessage;
  /** As Fastify computes them, with the app's trusted proxies. */
  readonly ip: string | undefined;
  readonly host: string;
  readonly protocol: string | undefined;
  readonly log: FastifyBaseLogger;
  /** The platform key the agent presented, once accepted (accessHooks.ts). */
  platformKeyId?: string | null;
}

export interface ProxyReply extends AnswerReply {
  readonly raw: ServerResponse;
  status(code: number): ProxyReply;
  header(name: string, value: string): ProxyReply;
  headers(values: Record<string, string>): ProxyReply;
  /** The content type of the body `send` serializes (JSON: a charset is added, as Fastify does). */
  type(contentType: string): ProxyReply;
  send(payload?: unknown): ProxyReply;
  /** From here on the answer is written to `raw` directly. */
  hijack(): ProxyReply;
}
