import type { FastifyServerOptions } from 'fastify';

// What the server log may hold (docs/security.md, "Logs"): never a credential. Bearer headers and
// cookies are removed; the query string is dropped (the live stream's ?token=); and a proxy key —
// the capability in /mcp/{key}, matched route or not — is replaced wherever a URL is logged.
const PROXY_KEY_IN_PATH = /^(\/mcp\/)[^/?#]+/;

export function redactUrl(url: string): string {
  return url.split('?')[0].replace(PROXY_KEY_IN_PATH, '$1[redacted]');
}

/** The logger options main.ts starts the server with (tests use the same, with their own stream). */
export function serverLoggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'req.query.token'],
      remove: true,
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}
