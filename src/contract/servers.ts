import { z } from 'zod';

// SPEC §3 Server, plus what the proxy adds: the generated proxy URL, the transport the upstream
// speaks, and whether upstream credentials are stored (they are write-only: never returned).
export const SERVER_STATUSES = ['online', 'offline'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];
/** 'streamable-http' (2025-03-26 and later) or 'sse' (the legacy 2024-11-05 HTTP+SSE transport). */
export const SERVER_TRANSPORTS = ['streamable-http', 'sse'] as const;
export type ServerTransport = (typeof SERVER_TRANSPORTS)[number];
/** 'remote': a URL the user registered; 'deployment': a stdio program Toolscope runs (contract/deployments). */
export const SERVER_KINDS = ['remote', 'deployment'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export const ServerDto = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  description: z.string(),
  workspaceId: z.string(),
  schemaCount: z.number().int(),
  /** High findings of the risk check on its current definitions (docs/security.md). */
  riskFindingCount: z.number().int(),
  status: z.enum(SERVER_STATUSES),
  lastHealthStatus: z.boolean().nullable(),
  lastChecked: z.string().nullable(),
  updatedAt: z.string(),
  createdAt: z.string(),
  /** `{public base}/mcp/{key}`: the URL agents are pointed at. */
  proxyUrl: z.string(),
  transport: z.enum(SERVER_TRANSPORTS),
  hasCredentials: z.boolean(),
  /** How long the proxy waits for this server's answer; null = the instance's default (60 s). */
  timeoutMs: z.number().int().nullable(),
  kind: z.enum(SERVER_KINDS),
  /** Browser origins allowed to call the proxy URL (CORS); empty = none but Toolscope's own. */
  allowedOrigins: z.array(z.string()),
});
export type ServerDto = z.infer<typeof ServerDto>;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * Headers a server definition must not set: the proxy owns them, or they are hop-by-hop and would
 * break every upstream call (Expect, TE, Proxy-*), docs/proxy.md.
 */
const RESERVED_HEADERS = new Set([
  'expect',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'http2-settings',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

/** Upstream credentials: extra headers (e.g. Authorization) the proxy adds to every upstream call. */
export const UpstreamHeaders = z
  .record(
    z.string().regex(HEADER_NAME, 'Invalid header name').max(100),
    z
      .string()
      .max(8192)
      .refine((v) => !/[\r\n\0]/.test(v), 'Invalid header value'),
  )
  .refine((h) => Object.keys(h).length <= 20, 'At most 20 headers')
  .refine(
    (h) => Object.keys(h).every((k) => !RESERVED_HEADERS.has(k.toLowerCase())),
    'This header is set by the proxy',
  );
export type UpstreamHeaders = z.infer<typeof UpstreamHeaders>;

const ServerUrl = z
  .string()
  .trim()
  .min(1, 'URL is required')
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'URL must be an http or https URL');

/** Milliseconds the proxy waits for the server's answer (null = the instance's default). */
const ServerTimeout = z
  .number()
  .int()
  .min(100, 'At least 100 ms')
  .max(600_000, 'At most 600000 ms (10 minutes)')
  .nullable();

/** At most this many browser origins per server. */
export const MAX_ALLOWED_ORIGINS = 20;
/**
 * A browser origin as browsers send it: scheme://host[:port], lower case, no path, http or https.
 * `*` is not taken: a proxy URL admits agents by their platform key, and any page on the web
 * calling it with a visitor's network position is what the DNS-rebinding check is there to stop.
 */
export const BrowserOrigin = z
  .string()
  .trim()
  .max(200)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.toLowerCase();
    } catch {
      return false;
    }
  }, 'Must be an origin such as https://app.example.com (scheme, host and port only)')
  .transform((value) => value.toLowerCase());
export const AllowedOrigins = z
  .array(BrowserOrigin)
  .max(MAX_ALLOWED_ORIGINS, `At most ${MAX_ALLOWED_ORIGINS} origins`)
  .transform((origins) => [...new Set(origins)]);

export const RegisterServerBody = z.object({
  url: ServerUrl,
  name: z.string().trim().min(1, 'Name is required').max(100),
  description: z.string().trim().max(1000).optional().default(''),
  transport: z.enum(SERVER_TRANSPORTS).optional().default('streamable-http'),
  headers: UpstreamHeaders.optional(),
  timeoutMs: ServerTimeout.optional(),
  allowedOrigins: AllowedOrigins.optional().default([]),
});
export type RegisterServerBody = z.input<typeof RegisterServerBody>;

/** Every field optional; `headers: {}` removes stored credentials, omitting it keeps them. */
export const UpdateServerBody = z.object({
  url: ServerUrl.optional(),
  name: z.string().trim().min(1, 'Name is required').max(100).optional(),
  description: z.string().trim().max(1000).optional(),
  transport: z.enum(SERVER_TRANSPORTS).optional(),
  headers: UpstreamHeaders.optional(),
  /** null goes back to the instance's default. */
  timeoutMs: ServerTimeout.optional(),
  /** Replaces the list; [] allows no other origin. */
  allowedOrigins: AllowedOrigins.optional(),
});
export type UpdateServerBody = z.input<typeof UpdateServerBody>;

export const ServerParams = z.object({ workspaceId: z.string(), serverId: z.string() });
export const RegisterServerQuery = z.object({ workspace_id: z.string().optional() });
export const ServerListResult = z.array(ServerDto);

/** POST /servers/{id}/health: the probe's outcome and the server as stored after it. */
export const ServerHealthResult = z.object({
  healthy: z.boolean(),
  latencyMs: z.number().nullable(),
  error: z.string().nullable(),
  server: ServerDto,
});
export type ServerHealthResult = z.infer<typeof ServerHealthResult>;
