import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

// Routes served below Fastify (issue 39): the MCP proxy's Streamable HTTP exchanges are most of
// the traffic, and Fastify's routing, hooks, content-type parsing and reply object cost ~10 % of
// the proxy's thread for them. Node's server hands each request to the raw route first; a route
// that does not take it (another URL or method, anything unusual, or the app closing) leaves it to
// Fastify's handler unchanged. A raw route gives the same answers as its Fastify twin (which stays
// registered: app.inject and the closing path use it); docs/proxy.md, "Dispatch".

/** Takes a request (and answers it) or returns false, having touched nothing. */
export type RawRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

/** After a raw route's answer (what Fastify's onResponse hooks see of its own routes). */
export type RawResponseObserver = (req: IncomingMessage, res: ServerResponse, elapsedMs: number) => void;

/** Fastify's server options that shape the Node server (what its own getServerInstance reads). */
interface ServerShape {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

export class RawRoutes {
  private route: RawRoute | undefined;
  private readonly observers: RawResponseObserver[] = [];
  /** close() has begun (app.ts): Fastify answers everything, so shutdown has one implementation. */
  closing = false;
  /** Requests a raw route took: how a test sees which path served it. */
  served = 0;

  serve(route: RawRoute): void {
    this.route = route;
  }

  /** Called when a raw route's answer finishes (or fails), with its duration. */
  observe(observer: RawResponseObserver): void {
    this.observers.push(observer);
  }

  /**
   * Fastify's `serverFactory`: the server Fastify would make itself for HTTP/1 (the same options
   * and timeouts), asking the raw route first.
   */
  readonly serverFactory = (fastifyHandler: (req: IncomingMessage, res: ServerResponse) => void, options: object) => {
    const shape = options as ServerShape;
    const server: Server = http.createServer(shape.http ?? {}, (req, res) => {
      const route = this.route;
      const startedAt = this.observers.length > 0 ? performance.now() : 0;
      if (route === undefined || this.closing || !route(req, res)) {
        fastifyHandler(req, res);
        return;
      }
      this.served++;
      if (this.observers.length > 0) this.watch(req, res, startedAt);
    });
    if (shape.keepAliveTimeout !== undefined) server.keepAliveTimeout = shape.keepAliveTimeout;
    if (shape.requestTimeout !== undefined) server.requestTimeout = shape.requestTimeout;
    server.setTimeout(shape.connectionTimeout ?? 0);
    if (shape.maxRequestsPerSocket) server.maxRequestsPerSocket = shape.maxRequestsPerSocket;
    return server;
  };

  private watch(req: IncomingMessage, res: ServerResponse, startedAt: number): void {
    // As Fastify's onResponse: once, on the answer's end or its error.
    const done = () => {
      res.removeListener('finish', done);
      res.removeListener('error', done);
      const elapsedMs = performance.now() - startedAt;
      for (const observer of this.observers) observer(req, res, elapsedMs);
    };
    res.once('finish', done);
    res.once('error', done);
  }
}
