import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { deploymentsConfigOf, deploymentsEnv, type DeploymentsConfig } from './deploymentsConfig';
import { bool, int } from './envValues';
import { oidcConfigOf, oidcEnv, type OidcConfig } from './oidcConfig';
import { parseFlagOverrides, resolveFlags, type Flags } from '../contract/flags';
import {
  isLoopbackHost,
  parsePrivateUpstreamAllowList,
  type PrivateUpstreamAllowList,
} from './net/privateNetworkPolicy';
import { parseTrustedProxies, type TrustedProxies } from './http/trustedProxies';

// Every setting comes from the environment, validated here, with defaults that make
// `npm start` work on a fresh machine. Nothing else reads process.env (the deployments' and
// sandbox's settings: deploymentsConfig.ts).

const EnvSchema = z.object({
  PORT: int(4000, 0),
  // Loopback by default: a fresh install is reachable from this machine only (docs/security.md).
  HOST: z.string().optional().default('127.0.0.1'),
  TOOLSCOPE_DATA_DIR: z.string().optional().default('./data'),
  DATABASE_URL: z.string().optional(),
  TOOLSCOPE_PUBLIC_URL: z.url().optional(),
  TOOLSCOPE_SECRET: z.string().min(32).optional(),
  TOOLSCOPE_FLAGS: z.string().optional(),
  TOOLSCOPE_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .optional()
    .default('info'),
  TOOLSCOPE_BODY_LIMIT_BYTES: int(1_048_576, 1024),
  TOOLSCOPE_PROXY_BODY_LIMIT_BYTES: int(4 * 1_048_576, 1024),
  TOOLSCOPE_PROXY_RESPONSE_LIMIT_BYTES: int(16 * 1_048_576, 1024),
  TOOLSCOPE_UPSTREAM_TIMEOUT_MS: int(60_000, 100),
  TOOLSCOPE_UNANSWERED_CALL_MS: int(300_000, 1000),
  TOOLSCOPE_STREAM_EXPECT_MS: int(1_000, 1),
  TOOLSCOPE_HEALTH_INTERVAL_MS: int(30_000, 50),
  // Unset: private upstreams allowed when HOST is loopback, refused otherwise (docs/security.md).
  TOOLSCOPE_ALLOW_PRIVATE_UPSTREAMS: z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', '']).optional(),
  TOOLSCOPE_PRIVATE_UPSTREAMS: z.string().optional(),
  TOOLSCOPE_DEV_MAIL_LOG: bool(false),
  TOOLSCOPE_AUTH_RATE_LIMIT_PER_MINUTE: int(20, 1),
  TOOLSCOPE_RECORDER_QUEUE_LIMIT: int(100_000, 10),
  TOOLSCOPE_RECORDER_FLUSH_MS: int(50, 1),
  // The recording journal (docs/proxy.md "The recording journal"): a folder, or "off".
  TOOLSCOPE_JOURNAL_DIR: z.string().optional(),
  TOOLSCOPE_JOURNAL_FSYNC_MS: int(1000, 0),
  TOOLSCOPE_JOURNAL_MAX_BYTES: int(1024 * 1_048_576, 1_048_576),
  TOOLSCOPE_PGLITE_NICE: int(10, 0).pipe(z.number().max(19)),
  TOOLSCOPE_SMTP_URL: z.string().optional(),
  TOOLSCOPE_MAIL_FROM: z.string().optional().default('Toolscope <no-reply@toolscope.local>'),
  TOOLSCOPE_PRICE_IDS: z.string().optional(),
  TOOLSCOPE_CLIENT_DIR: z.string().optional(),
  TOOLSCOPE_SHUTDOWN_GRACE_MS: int(10_000, 0),
  // Unset/false: X-Forwarded-* ignored; a hop count (true = 1) or proxy addresses/CIDRs (trustedProxies.ts).
  TOOLSCOPE_TRUST_PROXY: z.string().optional(),
  // Slow clients (docs/security.md "Slow clients"): header and request timeouts, connections per address.
  TOOLSCOPE_HEADERS_TIMEOUT_MS: int(10_000, 100),
  TOOLSCOPE_REQUEST_TIMEOUT_MS: int(30_000, 100),
  TOOLSCOPE_CONNECTIONS_PER_CLIENT: int(256, 1),
  // The proxy's limits under load (docs/proxy.md "Limits").
  TOOLSCOPE_STREAM_KEEPALIVE_MS: int(15_000, 0),
  TOOLSCOPE_PROXY_KEY_CACHE_MS: int(5_000, 0),
  TOOLSCOPE_STREAM_IDLE_MS: int(300_000, 0),
  TOOLSCOPE_STREAMS_PER_SESSION: int(2, 1),
  TOOLSCOPE_CALLS_IN_FLIGHT_PER_WORKSPACE: int(2000, 1),
  TOOLSCOPE_CALLS_IN_FLIGHT_PER_SERVER: int(1000, 1),
  TOOLSCOPE_CATALOG_URL: z.url().optional(),
  TOOLSCOPE_CATALOG_FILE: z.string().optional(),
  ...deploymentsEnv,
  ...oidcEnv,
  TOOLSCOPE_INTEGRATION_RETRY_BASE_MS: int(30_000, 10),
  TOOLSCOPE_TELEMETRY_METRICS_INTERVAL_MS: int(60_000, 100),
  /** Bearer token for GET /metrics (Prometheus); unset = the route is off. */
  TOOLSCOPE_METRICS_TOKEN: z.string().min(16).optional(),
  /** Host names the proxy answers under (DNS rebinding, proxy/browserAccess.ts); `*` = any. */
  TOOLSCOPE_ALLOWED_HOSTS: z.string().optional(),
  // Data retention (docs/operations.md "Retention"): a cap on every workspace's raw days (0/unset:
  // the plans' days), how often the expiry job runs (0: never), and the daily export folder.
  TOOLSCOPE_RAW_RETENTION_MAX_DAYS: int(0, 0),
  TOOLSCOPE_RETENTION_INTERVAL_MS: int(3_600_000, 0),
  TOOLSCOPE_EXPORT_DIR: z.string().optional(),
});

export interface Config extends DeploymentsConfig, OidcConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  /**
   * TOOLSCOPE_ALLOWED_HOSTS: the host names the proxy answers under (besides the public URL's);
   * ['*'] = any; empty = the default (loopback names when HOST is loopback, else any).
   */
  allowedHosts: string[];
  /** HMAC key for access tokens and the key that encrypts upstream credentials at rest. */
  secret: string;
  flags: Flags;
  logLevel: string;
  bodyLimitBytes: number;
  proxyBodyLimitBytes: number;
  proxyResponseLimitBytes: number;
  upstreamTimeoutMs: number;
  /** A tool call with no answer after this long ends as a timeout (docs/sessions.md "Definitions"). */
  unansweredCallMs: number;
  /** How long a new session's requests wait for the GET stream its agent is expected to open (proxy/sessionOrder.ts). */
  streamExpectMs: number;
  healthIntervalMs: number;
  /** Every private upstream allowed (resolved from TOOLSCOPE_ALLOW_PRIVATE_UPSTREAMS and HOST). */
  allowPrivateUpstreams: boolean;
  /** Private ranges and hosts the operator allows when allowPrivateUpstreams is false. */
  privateUpstreamAllowList: PrivateUpstreamAllowList;
  /** Log mail (password-reset links included) when no SMTP is configured: local use and demos only. */
  devMailLog: boolean;
  /** Requests per minute per client on sign-in, sign-up and forgot-password (refresh: 3×). */
  authRateLimitPerMinute: number;
  recorderQueueLimit: number;
  recorderFlushMs: number;
  /** The recorder's write-ahead journal folder (default {dataDir}/journal); undefined = no journal. */
  journalDir: string | undefined;
  /** fdatasync interval of the journal: what a machine crash may lose (0 = with every write). */
  journalFsyncMs: number;
  /** Disk budget of the journal; past it new rows are dropped and counted. */
  journalMaxBytes: number;
  /** Nice value of the embedded database's thread (Linux): the proxy's requests win the CPU over recorder writes. */
  pgliteNice: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** "pro.monthly=price_123,pro.annually=price_456" → overrides the plan placeholders. */
  priceIds: Record<string, string>;
  /** Where the built SPA lives; undefined = no SPA (API only). */
  clientDir: string | undefined;
  shutdownGraceMs: number;
  /** A request's headers must arrive within this (ms). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (ms); answers may stream longer. */
  requestTimeoutMs: number;
  /** Connections one client address may hold at once (long-lived streams not counted). */
  connectionsPerClient: number;
  /** Which peers' X-Forwarded-* are believed (client ip, host, protocol): none, a hop count or proxy addresses. */
  trustProxy: TrustedProxies;
  /** A registry speaking the MCP Registry API v0 for the marketplace (docs/marketplace.md). */
  catalogUrl: string | undefined;
  /** An operator's catalog file ({ servers: [server.json…] } or a registry list answer). */
  catalogFile: string | undefined;
  /** The first retry of an integration delivery waits this long, doubling up to 8 attempts. */
  integrationRetryBaseMs: number;
  /** How often each exporter sends its metric points (OTLP). */
  telemetryMetricsIntervalMs: number;
  /** GET /metrics answers only with this bearer token; undefined = off. */
  metricsToken: string | undefined;
  version: string;
  /** How long a proxy key's lookup is trusted before the database is asked again (served longer while the database is away). */
  proxyKeyCacheMs: number;
  /** A comment is written on a quiet agent stream this often (0 = never). */
  streamKeepAliveMs: number;
  /** A GET stream with nothing from its upstream for this long is ended; the agent opens a new one (0 = never). */
  streamIdleMs: number;
  /** Open GET streams per session (per agent for sessionless traffic). */
  streamsPerSession: number;
  /** POSTs carrying requests in flight at once, per workspace and per server. */
  callsInFlightPerWorkspace: number;
  callsInFlightPerServer: number;
  /** TOOLSCOPE_RAW_RETENTION_MAX_DAYS: the most days any workspace keeps raw data; null = the plans' days. */
  rawRetentionMaxDays: number | null;
  /** How often the expiry job runs; 0 = never (tests run it themselves). */
  retentionIntervalMs: number;
  /** TOOLSCOPE_EXPORT_DIR: where scheduled daily exports are written; unset = scheduling is off. */
  exportDir: string | undefined;
}

export class ConfigError extends Error {}

function parsePriceIds(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const [key, value] = part.split('=').map((s) => s.trim());
    if (key && value) out[key] = value;
  }
  return out;
}

/**
 * Reads the configuration. The secret, when not given, is generated once and kept in the data
 * dir (see loadOrCreateSecret in db/connection) so tokens survive a restart; `overrides` lets
 * tests and the bench build a config without touching process.env.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  let privateUpstreamAllowList: PrivateUpstreamAllowList;
  try {
    privateUpstreamAllowList = parsePrivateUpstreamAllowList(e.TOOLSCOPE_PRIVATE_UPSTREAMS);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: TOOLSCOPE_PRIVATE_UPSTREAMS: ${(error as Error).message}`);
  }
  let trustProxy: TrustedProxies;
  try {
    trustProxy = parseTrustedProxies(e.TOOLSCOPE_TRUST_PROXY);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: TOOLSCOPE_TRUST_PROXY: ${(error as Error).message}`);
  }
  const explicitPrivate = e.TOOLSCOPE_ALLOW_PRIVATE_UPSTREAMS;
  const host = overrides.host ?? e.HOST;
  const allowPrivateUpstreams =
    explicitPrivate === undefined || explicitPrivate === ''
      ? isLoopbackHost(host)
      : ['1', 'true', 'yes', 'on'].includes(explicitPrivate);
  const defaultClientDir = path.resolve(__dirname, '../../client');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.TOOLSCOPE_DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    publicUrl: e.TOOLSCOPE_PUBLIC_URL?.replace(/\/+$/, ''),
    allowedHosts: (e.TOOLSCOPE_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
    secret: e.TOOLSCOPE_SECRET ?? '',
    flags: resolveFlags(parseFlagOverrides(e.TOOLSCOPE_FLAGS)),
    logLevel: e.TOOLSCOPE_LOG_LEVEL,
    bodyLimitBytes: e.TOOLSCOPE_BODY_LIMIT_BYTES,
    proxyBodyLimitBytes: e.TOOLSCOPE_PROXY_BODY_LIMIT_BYTES,
    proxyResponseLimitBytes: e.TOOLSCOPE_PROXY_RESPONSE_LIMIT_BYTES,
    upstreamTimeoutMs: e.TOOLSCOPE_UPSTREAM_TIMEOUT_MS,
    unansweredCallMs: e.TOOLSCOPE_UNANSWERED_CALL_MS,
    streamExpectMs: e.TOOLSCOPE_STREAM_EXPECT_MS,
    healthIntervalMs: e.TOOLSCOPE_HEALTH_INTERVAL_MS,
    allowPrivateUpstreams,
    privateUpstreamAllowList,
    devMailLog: e.TOOLSCOPE_DEV_MAIL_LOG,
    authRateLimitPerMinute: e.TOOLSCOPE_AUTH_RATE_LIMIT_PER_MINUTE,
    recorderQueueLimit: e.TOOLSCOPE_RECORDER_QUEUE_LIMIT,
    recorderFlushMs: e.TOOLSCOPE_RECORDER_FLUSH_MS,
    journalDir:
      e.TOOLSCOPE_JOURNAL_DIR === 'off'
        ? undefined
        : path.resolve(e.TOOLSCOPE_JOURNAL_DIR || path.join(e.TOOLSCOPE_DATA_DIR, 'journal')),
    journalFsyncMs: e.TOOLSCOPE_JOURNAL_FSYNC_MS,
    journalMaxBytes: e.TOOLSCOPE_JOURNAL_MAX_BYTES,
    pgliteNice: e.TOOLSCOPE_PGLITE_NICE,
    smtpUrl: e.TOOLSCOPE_SMTP_URL || undefined,
    mailFrom: e.TOOLSCOPE_MAIL_FROM,
    priceIds: parsePriceIds(e.TOOLSCOPE_PRICE_IDS),
    // Empty = API only (npm run dev, where Vite serves the SPA).
    clientDir: e.TOOLSCOPE_CLIENT_DIR === undefined ? defaultClientDir : e.TOOLSCOPE_CLIENT_DIR || undefined,
    shutdownGraceMs: e.TOOLSCOPE_SHUTDOWN_GRACE_MS,
    trustProxy,
    headersTimeoutMs: e.TOOLSCOPE_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: Math.max(e.TOOLSCOPE_REQUEST_TIMEOUT_MS, e.TOOLSCOPE_HEADERS_TIMEOUT_MS),
    connectionsPerClient: e.TOOLSCOPE_CONNECTIONS_PER_CLIENT,
    catalogUrl: e.TOOLSCOPE_CATALOG_URL || undefined,
    catalogFile: e.TOOLSCOPE_CATALOG_FILE ? path.resolve(e.TOOLSCOPE_CATALOG_FILE) : undefined,
    ...deploymentsConfigOf(e),
    ...oidcConfigOf(e),
    integrationRetryBaseMs: e.TOOLSCOPE_INTEGRATION_RETRY_BASE_MS,
    telemetryMetricsIntervalMs: e.TOOLSCOPE_TELEMETRY_METRICS_INTERVAL_MS,
    metricsToken: e.TOOLSCOPE_METRICS_TOKEN,
    version: process.env.npm_package_version ?? '0.1.0',
    streamKeepAliveMs: e.TOOLSCOPE_STREAM_KEEPALIVE_MS,
    proxyKeyCacheMs: e.TOOLSCOPE_PROXY_KEY_CACHE_MS,
    streamIdleMs: e.TOOLSCOPE_STREAM_IDLE_MS,
    streamsPerSession: e.TOOLSCOPE_STREAMS_PER_SESSION,
    callsInFlightPerWorkspace: e.TOOLSCOPE_CALLS_IN_FLIGHT_PER_WORKSPACE,
    callsInFlightPerServer: e.TOOLSCOPE_CALLS_IN_FLIGHT_PER_SERVER,
    rawRetentionMaxDays: e.TOOLSCOPE_RAW_RETENTION_MAX_DAYS || null,
    retentionIntervalMs: e.TOOLSCOPE_RETENTION_INTERVAL_MS,
    exportDir: e.TOOLSCOPE_EXPORT_DIR ? path.resolve(e.TOOLSCOPE_EXPORT_DIR) : undefined,
    ...overrides,
  };
}

/** A random secret for tests and first start. */
export function generateSecret(): string {
  return randomBytes(48).toString('base64url');
}
