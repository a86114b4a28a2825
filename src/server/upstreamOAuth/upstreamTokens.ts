import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { AuthorizationServers, GrantRefused } from './authorizationServer';
import {
  loadConnection,
  markNeedsReconnect,
  openSecrets,
  saveRefreshed,
  sealSecrets,
} from '../data/upstreamOAuth/connectionStore';

// The access token of each connected server, for the proxy, the health monitor and schema
// discovery: read from the database once and kept in memory, refreshed a minute before it expires
// and when the upstream refuses it (401). One refresh at a time per server: in this process by a
// shared promise, across instances on PostgreSQL by an advisory lock held while refreshing (the
// second instance then finds the first one's new token instead of spending the refresh token
// again, which a server that rotates refresh tokens would treat as theft).

const CACHE_MS = 5_000;
const REFRESH_AHEAD_MS = 60_000;

interface Cached {
  accessToken: string | undefined;
  expiresAt: number | undefined;
  loadedAt: number;
}

export class UpstreamTokens {
  private readonly cache = new Map<string, Cached>();
  private readonly refreshing = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly db: Database,
    private readonly secret: string,
    readonly servers: AuthorizationServers,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** `headers` with the server's access token as Authorization (the same object when it has none). */
  async headersFor(serverId: string, headers: Record<string, string>): Promise<Record<string, string>> {
    const token = await this.accessToken(serverId);
    return token ? { ...headers, authorization: `Bearer ${token}` } : headers;
  }

  async accessToken(serverId: string): Promise<string | undefined> {
    const now = Date.now();
    const hit = this.cache.get(serverId);
    const fresh = (c: Cached) => c.expiresAt === undefined || c.expiresAt - now > REFRESH_AHEAD_MS;
    if (hit && now - hit.loadedAt < CACHE_MS && fresh(hit)) return hit.accessToken;
    const loaded = await this.load(serverId);
    if (loaded.accessToken === undefined || fresh(loaded)) return loaded.accessToken;
    return this.refresh(serverId, loaded.accessToken);
  }

  /** The upstream answered 401 to `refused`: a new token, unless another request already got one. */
  async afterRefusal(serverId: string, refused: string): Promise<string | undefined> {
    return this.refresh(serverId, refused);
  }

  forget(serverId: string): void {
    this.cache.delete(serverId);
  }

  private async load(serverId: string): Promise<Cached> {
    const row = await loadConnection(this.db, serverId);
    const cached: Cached = {
      accessToken: row?.status === 'connected' ? openSecrets(row.secrets_enc, this.secret).accessToken : undefined,
      expiresAt: row?.expires_at ? new Date(row.expires_at).getTime() : undefined,
      loadedAt: Date.now(),
    };
    this.cache.set(serverId, cached);
    return cached;
  }

  private refresh(serverId: string, stale: string): Promise<string | undefined> {
    let running = this.refreshing.get(serverId);
    if (!running) {
      running = (
        this.db.engine === 'postgres'
          ? this.db.transaction(async (tx) => {
              await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`upstream-oauth:${serverId}`]);
              return this.refreshNow(serverId, stale);
            })
          : this.refreshNow(serverId, stale)
      ).finally(() => this.refreshing.delete(serverId));
      this.refreshing.set(serverId, running);
    }
    return running;
  }

  private async refreshNow(serverId: string, stale: string): Promise<string | undefined> {
    const row = await loadConnection(this.db, serverId);
    if (row?.status !== 'connected' || !row.issuer || !row.client_id || !row.resource) {
      this.gone(serverId);
      return undefined;
    }
    const secrets = openSecrets(row.secrets_enc, this.secret);
    // Another request (or instance) refreshed meanwhile: use its token.
    if (secrets.accessToken && secrets.accessToken !== stale) return (await this.load(serverId)).accessToken;
    if (!secrets.refreshToken) {
      await markNeedsReconnect(this.db, serverId, 'The access token expired and the server gave no refresh token');
      this.gone(serverId);
      return undefined;
    }
    try {
      const as = await this.servers.server(row.issuer);
      const tokens = await this.servers.refresh(
        as,
        { clientId: row.client_id, clientSecret: secrets.clientSecret },
        secrets.refreshToken,
        row.resource,
      );
      const sealed = sealSecrets(
        { ...secrets, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? secrets.refreshToken },
        this.secret,
      );
      await saveRefreshed(this.db, serverId, sealed, tokens.expiresAt ?? null, tokens.scope ?? null);
      return (await this.load(serverId)).accessToken;
    } catch (error) {
      if (error instanceof GrantRefused) {
        await markNeedsReconnect(this.db, serverId, `The authorization server refused the refresh (${error.code})`);
        this.gone(serverId);
        return undefined;
      }
      // Unreachable or a bad answer: keep the connection, the next request tries again.
      this.log?.warn({ err: error, serverId }, 'upstream OAuth refresh failed');
      return stale;
    }
  }

  /** No token to give until someone connects the server again. */
  private gone(serverId: string): void {
    this.cache.set(serverId, { accessToken: undefined, expiresAt: undefined, loadedAt: Date.now() });
    return undefined;
  }
}
