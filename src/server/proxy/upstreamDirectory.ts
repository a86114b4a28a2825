import type { Database } from '../db/database';
import { decryptCredentials } from '../data/servers/credentials';
import { findServerByProxyKey } from '../data/servers/store';

// Proxy key → upstream, cached briefly so a tool call costs no database round trip. The servers
// API calls forget() on update and delete, so a change applies at once on this instance (and
// within the cache time on others). While the database is away, a key known before is served as
// it was last known (stale beats down: a database outage must not be a proxy outage); a key this
// instance knows to be revoked or unknown stays refused, and a key never seen cannot be checked.
export interface UpstreamTarget {
  serverId: string;
  workspaceId: string;
  serverName: string;
  proxyKey: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  /** Decrypted upstream credentials, added to every upstream request. */
  headers: Record<string, string>;
  /** The server's own timeout; null = the instance's default. */
  timeoutMs: number | null;
  /** Browser origins allowed to call its proxy URL (CORS, browserAccess.ts). */
  allowedOrigins: readonly string[];
  /** The server requires OAuth: its access token is added per request (upstreamOAuth/upstreamTokens.ts). */
  oauth: boolean;
}

const CACHE_MS = 5_000;
/** While the database is away, a stale entry is served this long before the database is asked again. */
const OUTAGE_RETRY_MS = 1_000;

/** The database could not be asked about a key this instance has not seen: the caller answers 503. */
export class DirectoryUnavailableError extends Error {}

/** Credentials sealed under another secret cannot be read: forward without them (the upstream's 401 says why). */
function readableCredentials(stored: string | null, secret: string): Record<string, string> {
  try {
    return decryptCredentials(stored, secret);
  } catch {
    return {};
  }
}
const MAX_ENTRIES = 10_000;

export class UpstreamDirectory {
  private readonly cache = new Map<string, { target: UpstreamTarget | null; expires: number }>();

  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly cacheMs = CACHE_MS,
  ) {}

  async get(proxyKey: string): Promise<UpstreamTarget | null> {
    const hit = this.cache.get(proxyKey);
    const now = Date.now();
    if (hit && hit.expires > now) return hit.target;
    let row: Awaited<ReturnType<typeof findServerByProxyKey>>;
    try {
      row = /^[A-Za-z0-9_-]{16,128}$/.test(proxyKey) ? await findServerByProxyKey(this.db, proxyKey) : undefined;
    } catch (error) {
      if (!hit) throw new DirectoryUnavailableError('The proxy key could not be checked', { cause: error });
      hit.expires = now + OUTAGE_RETRY_MS;
      return hit.target;
    }
    const target: UpstreamTarget | null = row
      ? {
          serverId: row.id,
          workspaceId: row.workspace_id,
          serverName: row.name,
          proxyKey: row.proxy_key,
          url: row.url,
          transport: row.transport === 'sse' ? 'sse' : 'streamable-http',
          headers: readableCredentials(row.credentials_enc, this.secret),
          timeoutMs: row.timeout_ms ?? null,
          allowedOrigins: row.allowed_origins ?? [],
          oauth: row.oauth,
        }
      : null;
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(proxyKey, { target, expires: now + this.cacheMs });
    return target;
  }

  /** The target of a key this instance knows already (no lookup), or undefined. */
  known(proxyKey: string): UpstreamTarget | null | undefined {
    const hit = this.cache.get(proxyKey);
    return hit && hit.expires > Date.now() ? hit.target : undefined;
  }

  forget(proxyKey: string): void {
    this.cache.delete(proxyKey);
  }

  /** A deleted server's key: known to be refused from now on, also while the database is away. */
  revoke(proxyKey: string): void {
    this.cache.set(proxyKey, { target: null, expires: Date.now() + this.cacheMs });
  }
}
