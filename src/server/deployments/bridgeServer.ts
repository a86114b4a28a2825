import { randomBytes, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonRpcError } from './httpSessions';

// The HTTP listener of the local runner's stdio bridges: /deployments/{id}/mcp per deployment,
// on loopback by default. Each deployment has a random bearer token, stored as the credentials of
// its tool server (encrypted), so only the proxy, the health monitor and discovery — which add a
// server's credentials to every upstream request — can reach it, not other users of the host.
export interface BridgeHandler {
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
}

const BODY_LIMIT = 4 * 1024 * 1024;
const PATH = /^\/deployments\/([0-9a-f-]{36})\/mcp\/?(?:\?.*)?$/;

export class BridgeServer {
  private server: http.Server | undefined;
  private listening: Promise<string> | undefined;
  private readonly routes = new Map<string, { token: Buffer; handler: BridgeHandler }>();

  constructor(
    private readonly options: {
      host: string;
      port: number;
      advertisedUrl?: string;
      onListening?: (address: string, port: number) => void;
    },
  ) {}

  /** Starts listening (once) and resolves with the base URL other parts use to reach it. */
  baseUrl(): Promise<string> {
    this.listening ??= new Promise<string>((resolve, reject) => {
      const server = http.createServer((req, res) => void this.route(req, res));
      server.keepAliveTimeout = 30_000;
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        const { port } = server.address() as AddressInfo;
        const host = this.options.host === '0.0.0.0' || this.options.host === '::' ? '127.0.0.1' : this.options.host;
        this.options.onListening?.(host, port);
        resolve(this.options.advertisedUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`);
      });
      this.server = server;
    });
    return this.listening;
  }

  /** Routes a deployment's path to its handler; returns the URL and headers that reach it. */
  async add(deploymentId: string, handler: BridgeHandler): Promise<{ url: string; headers: Record<string, string> }> {
    const base = await this.baseUrl();
    const token = randomBytes(32).toString('base64url');
    this.routes.set(deploymentId, { token: Buffer.from(token), handler });
    return { url: `${base}/deployments/${deploymentId}/mcp`, headers: { Authorization: `Bearer ${token}` } };
  }

  remove(deploymentId: string): void {
    this.routes.delete(deploymentId);
  }

  async close(): Promise<void> {
    this.routes.clear();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const match = PATH.exec(req.url ?? '');
      const route = match ? this.routes.get(match[1]) : undefined;
      if (!route) {
        jsonRpcError(res, 404, -32001, 'Unknown deployment');
        return;
      }
      const presented = Buffer.from((req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
      if (presented.length !== route.token.length || !timingSafeEqual(presented, route.token)) {
        jsonRpcError(res, 401, -32001, 'Unauthorized');
        return;
      }
      let body: unknown;
      if (req.method === 'POST') {
        const raw = await readBody(req);
        if (raw === null) {
          jsonRpcError(res, 413, -32600, 'Request body too large');
          return;
        }
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          jsonRpcError(res, 400, -32700, 'Parse error');
          return;
        }
      }
      await route.handler.handle(req, res, body);
    } catch {
      jsonRpcError(res, 500, -32603, 'Internal error');
    }
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
