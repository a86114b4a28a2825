import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';
import { beforeSend } from '../http/answers';
import type { ProxyReply, ProxyRequest } from './exchangeIo';

// The request and reply of an exchange served below Fastify (rawStreamableHttp.ts): what
// exchangeIo.ts lists, computed and answered as Fastify does it for its own routes — the client's
// address, Host and protocol with the app's trusted proxies (Fastify's request.js), a JSON body
// with the same content type and length, the app's onSend rules (http/answers.ts).

/** What every exchange of one app shares. */
export interface RawSite {
  /** Fastify's `trustProxy` value as app.ts passes it (http/trustedProxies.ts). */
  trust: ((address: string, hop: number) => boolean) | null;
  log: FastifyBaseLogger;
  closing(): boolean;
}

/** Fastify's own reading of its `trustProxy` option (request.js getTrustProxyFn), for the values app.ts passes. */
export function trustFunction(
  trustProxy: false | string[] | ((address: string, hop: number) => boolean),
): RawSite['trust'] {
  if (trustProxy === false) return null;
  return typeof trustProxy === 'function' ? trustProxy : proxyAddr.compile(trustProxy);
}

/** The last value of a header a chain of proxies may have appended to (as Fastify reads it). */
function lastEntry(value: string): string {
  const comma = value.lastIndexOf(',');
  return comma === -1 ? value.trim() : value.slice(comma + 1).trim();
}

let logged = 0;

export class RawRequest implements ProxyRequest {
  body: unknown = undefined;
  platformKeyId?: string | null;
  private logger: FastifyBaseLogger | undefined;

  constructor(
    readonly raw: IncomingMessage,
    readonly params: { proxyKey: string },
    private readonly site: RawSite,
  ) {}

  get method(): string {
    return this.raw.method ?? '';
  }

  get url(): string {
    return this.raw.url ?? '';
  }

  get headers(): IncomingHttpHeaders {
    return this.raw.headers;
  }

  get ip(): string | undefined {
    if (this.site.trust === null) return this.raw.socket.remoteAddress;
    return proxyAddr.all(this.raw, this.site.trust).at(-1);
  }

  get host(): string {
    const headers = this.raw.headers;
    const forwarded = headers['x-forwarded-host'];
    if (typeof forwarded === 'string' && forwarded && this.fromTrustedPeer()) return lastEntry(forwarded);
    return headers.host ?? (headers[':authority'] as string | undefined) ?? '';
  }

  get protocol(): string | undefined {
    const forwarded = this.raw.headers['x-forwarded-proto'];
    if (typeof forwarded === 'string' && forwarded && this.fromTrustedPeer()) return lastEntry(forwarded);
    return (this.raw.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  }

  /** As a Fastify route's: a child at the route's level (warn), made only when something logs. */
  get log(): FastifyBaseLogger {
    this.logger ??= this.site.log.child({ reqId: `raw-${(++logged).toString(36)}` }, { level: 'warn' });
    return this.logger;
  }

  private fromTrustedPeer(): boolean {
    const address = this.raw.socket.remoteAddress;
    return this.site.trust !== null && address !== undefined && this.site.trust(address, 0);
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

export class RawReply implements ProxyReply {
  /** Headers set before the answer (Fastify's reply keeps its own the same way, lower-cased). */
  private pending: Partial<Record<string, string>> = {};
  private hijacked = false;

  constructor(
    readonly raw: ServerResponse,
    private readonly site: RawSite,
  ) {}

  get statusCode(): number {
    return this.raw.statusCode;
  }

  /** Fastify's `reply.sent`. */
  get sent(): boolean {
    return this.hijacked || this.raw.writableEnded;
  }

  status(code: number): this {
    this.raw.statusCode = code;
    return this;
  }

  header(name: string, value: string): this {
    this.pending[name.toLowerCase()] = value;
    return this;
  }

  headers(values: Record<string, string>): this {
    for (const name of Object.keys(values)) this.header(name, values[name]);
    return this;
  }

  hasHeader(name: string): boolean {
    const lower = name.toLowerCase();
    return this.pending[lower] !== undefined || this.raw.hasHeader(lower);
  }

  type(contentType: string): this {
    this.pending['content-type'] = contentType;
    return this;
  }

  hijack(): this {
    this.hijacked = true;
    return this;
  }

  /** Before an error's answer: its body gets its own type and length (Fastify's handleError). */
  clearBodyHeaders(): void {
    delete this.pending['content-type'];
    delete this.pending['content-length'];
  }

  /** Fastify's send for what the proxy sends: nothing, a string, a Buffer, or a value as JSON. */
  send(payload?: unknown): this {
    if (this.sent) return this;
    const headers = this.pending;
    let body: string | Buffer | undefined;
    if (payload === undefined) body = undefined;
    else if (Buffer.isBuffer(payload)) {
      headers['content-type'] ??= 'application/octet-stream';
      body = payload;
    } else if (typeof payload === 'string' && headers['content-type'] === undefined) {
      headers['content-type'] = 'text/plain; charset=utf-8';
      body = payload;
    } else {
      const type = headers['content-type'];
      if (type === undefined) headers['content-type'] = JSON_TYPE;
      else if (type.includes('json') && !/;\s*charset=/i.test(type)) headers['content-type'] = `${type}; charset=utf-8`;
      body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    }
    beforeSend(this, this.site.closing());
    const status = this.raw.statusCode;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    else if (status >= 200 && status !== 204 && status !== 304) headers['content-length'] = '0';
    this.raw.writeHead(status, headers);
    // One end() with the body: headers and body leave in one write, as Fastify sends them.
    this.raw.end(body);
    return this;
  }
}
