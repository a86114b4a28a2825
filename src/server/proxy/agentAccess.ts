import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { AgentAccessErrorCode, AgentAccessText } from '../../contract/agentAccess';
import { PLATFORM_KEY_PREFIX, type KeyRefusalReason } from '../../contract/keys';
import { hashPlatformKey, isWellFormedPlatformKey, platformKeyPrefix, sameHash } from '../auth/platformKeySecret';
import { loadProxyKeys, touchPlatformKey, type ProxyKeyRow } from '../data/keys/platformKeyStore';
import { ACCESS_CHANNEL, announceAccessChange, parseAccessChange } from './accessChannel';
import { KeyRefusalLog } from './keyRefusalLog';

// Who may call through the proxy: the platform key an agent presents (Authorization: Bearer tsk_…
// or X-Toolscope-Key) checked against an in-memory copy of every key, so the hot path makes no
// database round trip. The copy follows changes through ACCESS_CHANNEL (a revoke reaches every
// instance as fast as a NOTIFY travels) and is reloaded whole every minute in case a notification
// was lost while a listener reconnected. docs/access.md.
const FULL_RELOAD_MS = 60_000;
const TOUCH_EVERY_MS = 60_000;

interface CachedKey {
  id: string;
  workspaceId: string;
  hash: Buffer;
  allServers: boolean;
  serverIds: Set<string>;
  expiresAt: number | null;
  revoked: boolean;
}

export type AccessDecision =
  | { ok: true; keyId: string | null }
  | { ok: false; status: 401 | 403; code: number; message: string; reason: KeyRefusalReason | 'missing' };

export interface AccessTarget {
  workspaceId: string;
  serverId: string;
}

/** The key an agent presents: a `tsk_` bearer token, else X-Toolscope-Key. */
export function presentedPlatformKey(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const token = authorization.replace(/^Bearer\s+/i, '').trim();
    if (token !== authorization && token.startsWith(PLATFORM_KEY_PREFIX)) return token;
  }
  const header = headers['x-toolscope-key'];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
}

function toCached(row: ProxyKeyRow): CachedKey {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    hash: Buffer.from(row.secret_hash),
    allServers: row.all_servers,
    serverIds: new Set(row.server_ids),
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
    revoked: row.revoked_at !== null,
  };
}

export class AgentAccess {
  /** prefix → keys with that prefix (almost always one). */
  private byPrefix = new Map<string, CachedKey[]>();
  private byId = new Map<string, CachedKey>();
  private prefixOf = new Map<string, string>();
  private requiring = new Set<string>();
  private changedDuringReload: Set<string> | undefined;
  private readonly lastTouched = new Map<string, number>();
  private unlisten: (() => Promise<void>) | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;
  readonly refusals: KeyRefusalLog;
  /** Other listeners of the channel's changes (the workspace key resolver). */
  onChange: ((kind: 'key' | 'require' | 'secrets', id: string) => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly log?: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.refusals = new KeyRefusalLog(db, log);
  }

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(ACCESS_CHANNEL, (payload) => {
      const change = parseAccessChange(payload);
      if (!change) return;
      if (change.kind === 'key')
        void this.reloadKey(change.id).catch((error: unknown) =>
          this.log?.error({ err: error }, 'platform key reload failed'),
        );
      else if (change.kind === 'require')
        void this.reloadRequirement(change.id).catch((error: unknown) =>
          this.log?.error({ err: error }, 'key requirement reload failed'),
        );
      this.onChange?.(change.kind, change.id);
    });
    await this.reloadAll();
    this.reloadTimer = setInterval(
      () =>
        void this.reloadAll().catch((error: unknown) => this.log?.error({ err: error }, 'platform keys reload failed')),
      FULL_RELOAD_MS,
    );
    this.reloadTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.reloadTimer) clearInterval(this.reloadTimer);
    await this.unlisten?.();
    this.unlisten = undefined;
    await this.refusals.flush();
  }

  /** The decision for one proxy request. Synchronous: memory only. */
  check(headers: IncomingHttpHeaders, target: AccessTarget): AccessDecision {
    const secret = presentedPlatformKey(headers);
    if (secret === undefined) {
      if (!this.requiring.has(target.workspaceId)) return { ok: true, keyId: null };
      return {
        ok: false,
        status: 401,
        code: AgentAccessErrorCode.keyRequired,
        message: AgentAccessText.keyRequired,
        reason: 'missing',
      };
    }
    const key = this.find(secret);
    // Another workspace's key is as unknown here as a made-up one.
    if (!key || key.workspaceId !== target.workspaceId) return this.refuse(target, null, secret, 'unknown');
    if (key.revoked) return this.refuse(target, key, secret, 'revoked');
    if (key.expiresAt !== null && key.expiresAt <= this.now()) return this.refuse(target, key, secret, 'expired');
    if (!key.allServers && !key.serverIds.has(target.serverId)) return this.refuse(target, key, secret, 'out_of_scope');
    this.touch(key.id);
    return { ok: true, keyId: key.id };
  }

  requiresKey(workspaceId: string): boolean {
    return this.requiring.has(workspaceId);
  }

  /** After this instance changed a key: apply it here now, then tell every instance. */
  async keyChanged(keyId: string): Promise<void> {
    await this.reloadKey(keyId);
    await announceAccessChange(this.db, { kind: 'key', id: keyId });
  }

  async requirementChanged(workspaceId: string): Promise<void> {
    await this.reloadRequirement(workspaceId);
    await announceAccessChange(this.db, { kind: 'require', id: workspaceId });
  }

  private find(secret: string): CachedKey | undefined {
    if (!isWellFormedPlatformKey(secret)) return undefined;
    const candidates = this.byPrefix.get(platformKeyPrefix(secret));
    if (!candidates) return undefined;
    const hash = hashPlatformKey(secret);
    let match: CachedKey | undefined;
    // Every candidate is compared, in constant time each, whether or not one matched earlier.
    for (const candidate of candidates) if (sameHash(candidate.hash, hash)) match = candidate;
    return match;
  }

  private refuse(
    target: AccessTarget,
    key: CachedKey | null,
    secret: string,
    reason: KeyRefusalReason,
  ): AccessDecision {
    // Only what lists show of a key is kept of one we never issued, and only when it looks like one.
    const shownPrefix = key
      ? null
      : secret.startsWith(PLATFORM_KEY_PREFIX)
        ? platformKeyPrefix(secret).slice(0, 12)
        : null;
    this.refusals.add(target.workspaceId, key?.id ?? null, shownPrefix, target.serverId, reason);
    if (reason === 'out_of_scope')
      return {
        ok: false,
        status: 403,
        code: AgentAccessErrorCode.outOfScope,
        message: AgentAccessText.outOfScope,
        reason,
      };
    const message =
      reason === 'revoked'
        ? AgentAccessText.revoked
        : reason === 'expired'
          ? AgentAccessText.expired
          : AgentAccessText.unknown;
    return { ok: false, status: 401, code: AgentAccessErrorCode.keyRefused, message, reason };
  }

  private touch(keyId: string): void {
    const now = this.now();
    const last = this.lastTouched.get(keyId);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
    this.lastTouched.set(keyId, now);
    touchPlatformKey(this.db, keyId).catch((error: unknown) =>
      this.log?.error({ err: error }, 'platform key last use not written'),
    );
  }

  private put(key: CachedKey, prefix: string): void {
    this.remove(key.id);
    this.byId.set(key.id, key);
    this.prefixOf.set(key.id, prefix);
    this.byPrefix.set(prefix, [...(this.byPrefix.get(prefix) ?? []), key]);
  }

  private remove(keyId: string): void {
    const prefix = this.prefixOf.get(keyId);
    this.byId.delete(keyId);
    this.prefixOf.delete(keyId);
    if (prefix === undefined) return;
    const rest = (this.byPrefix.get(prefix) ?? []).filter((k) => k.id !== keyId);
    if (rest.length) this.byPrefix.set(prefix, rest);
    else this.byPrefix.delete(prefix);
  }

  private async reloadKey(keyId: string): Promise<void> {
    this.changedDuringReload?.add(`key:${keyId}`);
    const row = (await loadProxyKeys(this.db, keyId)).at(0);
    if (row) this.put(toCached(row), row.prefix);
    else this.remove(keyId);
  }

  private async reloadRequirement(workspaceId: string): Promise<void> {
    this.changedDuringReload?.add(`require:${workspaceId}`);
    const rows = await this.db.query<{ require_platform_key: boolean }>(
      'select require_platform_key from workspaces where id = $1',
      [workspaceId],
    );
    if (rows[0]?.require_platform_key) this.requiring.add(workspaceId);
    else this.requiring.delete(workspaceId);
  }

  private async reloadAll(): Promise<void> {
    // A change applied while the whole set was being read may be older in that read: applied again after.
    const changed = new Set<string>();
    this.changedDuringReload = changed;
    const [keys, requiring] = await Promise.all([
      loadProxyKeys(this.db),
      this.db.query<{ id: string }>('select id from workspaces where require_platform_key'),
    ]);
    const byPrefix = new Map<string, CachedKey[]>();
    const byId = new Map<string, CachedKey>();
    const prefixOf = new Map<string, string>();
    for (const row of keys) {
      const key = toCached(row);
      byId.set(key.id, key);
      prefixOf.set(key.id, row.prefix);
      byPrefix.set(row.prefix, [...(byPrefix.get(row.prefix) ?? []), key]);
    }
    this.byPrefix = byPrefix;
    this.byId = byId;
    this.prefixOf = prefixOf;
    this.requiring = new Set(requiring.map((r) => r.id));
    this.changedDuringReload = undefined;
    for (const entry of changed) {
      const [kind, id] = entry.split(':');
      await (kind === 'key' ? this.reloadKey(id) : this.reloadRequirement(id));
    }
  }
}
