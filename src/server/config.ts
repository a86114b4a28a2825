import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseFlagOverrides, resolveFlags, type Flags } from '../contract/flags';

// Every setting comes from the environment, validated here, with defaults that make
// `npm start` work on a fresh machine. Nothing else reads process.env.
const bool = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())));
const int = (fallback: number, min = 0) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : Number(v)))
    .pipe(z.number().int().min(min));

const EnvSchema = z.object({
  PORT: int(4000, 0),
  HOST: z.string().optional().default('0.0.0.0'),
  TOOLSCOPE_DATA_DIR: z.string().optional().default('./data'),
  DATABASE_URL: z.string().optional(),
  TOOLSCOPE_PUBLIC_URL: z.string().url().optional(),
  TOOLSCOPE_SECRET: z.string().min(32).optional(),
  TOOLSCOPE_FLAGS: z.string().optional(),
  TOOLSCOPE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
  TOOLSCOPE_BODY_LIMIT_BYTES: int(1_048_576, 1024),
  TOOLSCOPE_PROXY_BODY_LIMIT_BYTES: int(4 * 1_048_576, 1024),
  TOOLSCOPE_PROXY_RESPONSE_LIMIT_BYTES: int(16 * 1_048_576, 1024),
  TOOLSCOPE_UPSTREAM_TIMEOUT_MS: int(60_000, 100),
  TOOLSCOPE_HEALTH_INTERVAL_MS: int(30_000, 50),
  TOOLSCOPE_ALLOW_PRIVATE_UPSTREAMS: bool(true),
  TOOLSCOPE_RECORDER_QUEUE_LIMIT: int(100_000, 10),
  TOOLSCOPE_RECORDER_FLUSH_MS: int(50, 1),
  TOOLSCOPE_PGLITE_NICE: int(10, 0).pipe(z.number().max(19)),
  TOOLSCOPE_SMTP_URL: z.string().optional(),
  TOOLSCOPE_MAIL_FROM: z.string().optional().default('Toolscope <no-reply@toolscope.local>'),
  TOOLSCOPE_PRICE_IDS: z.string().optional(),
  TOOLSCOPE_CLIENT_DIR: z.string().optional(),
  TOOLSCOPE_SHUTDOWN_GRACE_MS: int(10_000, 0),
  TOOLSCOPE_TRUST_PROXY: bool(false),
  TOOLSCOPE_INTEGRATION_RETRY_BASE_MS: int(30_000, 10),
  TOOLSCOPE_TELEMETRY_METRICS_INTERVAL_MS: int(60_000, 100),
  /** Bearer token for GET /metrics (Prometheus); unset = the route is off. */
  TOOLSCOPE_METRICS_TOKEN: z.string().min(16).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  /** HMAC key for access tokens and the key that encrypts upstream credentials at rest. */
  secret: string;
  flags: Flags;
  logLevel: string;
  bodyLimitBytes: number;
  proxyBodyLimitBytes: number;
  proxyResponseLimitBytes: number;
  upstreamTimeoutMs: number;
  healthIntervalMs: number;
  allowPrivateUpstreams: boolean;
  recorderQueueLimit: number;
  recorderFlushMs: number;
  /** Nice value of the embedded database's thread (Linux): the proxy's requests win the CPU over recorder writes. */
  pgliteNice: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** "pro.monthly=price_123,pro.annually=price_456" → overrides the plan placeholders. */
  priceIds: Record<string, string>;
  /** Where the built SPA lives; undefined = no SPA (API only). */
  clientDir: string | undefined;
  shutdownGraceMs: number;
  /** Believe X-Forwarded-* (client ip, host, protocol): only behind a reverse proxy you run. */
  trustProxy: boolean;
  /** The first retry of an integration delivery waits this long, doubling up to 8 attempts. */
  integrationRetryBaseMs: number;
  /** How often each exporter sends its metric points (OTLP). */
  telemetryMetricsIntervalMs: number;
  /** GET /metrics answers only with this bearer token; undefined = off. */
  metricsToken: string | undefined;
  version: string;
}

export class ConfigError extends Error {}

function parsePriceIds(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const [key, value] = part.split('=').map((s) => s?.trim());
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
  const defaultClientDir = path.resolve(__dirname, '../../client');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.TOOLSCOPE_DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    publicUrl: e.TOOLSCOPE_PUBLIC_URL?.replace(/\/+$/, ''),
    secret: e.TOOLSCOPE_SECRET ?? '',
    flags: resolveFlags(parseFlagOverrides(e.TOOLSCOPE_FLAGS)),
    logLevel: e.TOOLSCOPE_LOG_LEVEL,
    bodyLimitBytes: e.TOOLSCOPE_BODY_LIMIT_BYTES,
    proxyBodyLimitBytes: e.TOOLSCOPE_PROXY_BODY_LIMIT_BYTES,
    proxyResponseLimitBytes: e.TOOLSCOPE_PROXY_RESPONSE_LIMIT_BYTES,
    upstreamTimeoutMs: e.TOOLSCOPE_UPSTREAM_TIMEOUT_MS,
    healthIntervalMs: e.TOOLSCOPE_HEALTH_INTERVAL_MS,
    allowPrivateUpstreams: e.TOOLSCOPE_ALLOW_PRIVATE_UPSTREAMS,
    recorderQueueLimit: e.TOOLSCOPE_RECORDER_QUEUE_LIMIT,
    recorderFlushMs: e.TOOLSCOPE_RECORDER_FLUSH_MS,
    pgliteNice: e.TOOLSCOPE_PGLITE_NICE,
    smtpUrl: e.TOOLSCOPE_SMTP_URL || undefined,
    mailFrom: e.TOOLSCOPE_MAIL_FROM,
    priceIds: parsePriceIds(e.TOOLSCOPE_PRICE_IDS),
    // Empty = API only (npm run dev, where Vite serves the SPA).
    clientDir: e.TOOLSCOPE_CLIENT_DIR === undefined ? defaultClientDir : e.TOOLSCOPE_CLIENT_DIR || undefined,
    shutdownGraceMs: e.TOOLSCOPE_SHUTDOWN_GRACE_MS,
    trustProxy: e.TOOLSCOPE_TRUST_PROXY,
    integrationRetryBaseMs: e.TOOLSCOPE_INTEGRATION_RETRY_BASE_MS,
    telemetryMetricsIntervalMs: e.TOOLSCOPE_TELEMETRY_METRICS_INTERVAL_MS,
    metricsToken: e.TOOLSCOPE_METRICS_TOKEN,
    version: process.env.npm_package_version ?? '0.1.0',
    ...overrides,
  };
}

/** A random secret for tests and first start. */
export function generateSecret(): string {
  return randomBytes(48).toString('base64url');
}
