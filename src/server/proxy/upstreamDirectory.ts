import type { Database } from '../db/database';
import { decryptCredentials } from '../modules/servers/credentials';
import { findServerByProxyKey } from '../modules/servers/store';

// Proxy key → upstream, cached briefly so a tool call costs no database round trip. The servers
// API calls forget() on update and delete, so a change applies at once on this instance (and
// within CACHE_MS on others).
export interface UpstreamTarget {
  serverId: string;
  workspaceId: string;
  serverName: string;
  proxyKey: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  /** Decrypted upstream credentials, added to every upstream request. */
  headers: Record<string, string>;
}

const CACHE_MS = 5_000;

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
  ) {}

  async get(proxyKey: string): Promise<UpstreamTarget | null> {
    const hit = this.cache.get(proxyKey);
    const now = Date.now();
    if (hit && hit.expires > now) return hit.target;
    const row = /^[A-Za-z0-9_-]{16,128}$/.test(proxyKey) ? await findServerByProxyKey(this.db, proxyKey) : undefined;
    const target: UpstreamTarget | null = row
      ? {
          serverId: row.id,
          workspaceId: row.workspace_id,
          serverName: row.name,
          proxyKey: row.proxy_key,
          url: row.url,
          transport: row.transport === 'sse' ? 'sse' : 'streamable-http',
          headers: readableCredentials(row.credentials_enc, this.secret),
        }
      : null;
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(proxyKey, { target, expires: now + CACHE_MS });
    return target;
  }

  forget(proxyKey: string): void {
    this.cache.delete(proxyKey);
  }
}
