import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { WORKSPACE_KEY_REFERENCE } from '../../contract/keys';
import { loadSealedKeys, openKeyValue, touchWorkspaceKey } from '../data/keys/workspaceKeyStore';
import { keyMayGoTo } from '../data/keys/keyHosts';

// `{{key:NAME}}` in a server's upstream headers, replaced by the workspace key's value for each
// upstream request (proxy, health probe, discovery). The workspace's keys are read once and kept
// decrypted in memory until one of them changes (the keys API forgets the workspace here and
// announces it on the access channel to the other instances), so a rotation applies to the next
// request and a request costs no database round trip. A header naming a key that does not exist,
// or a key whose hosts do not include the destination (data/keys/keyHosts.ts: a key goes only
// where its creator or an owner said), is left out: the upstream's own 401 then says what is missing.
const TOUCH_EVERY_MS = 60_000;

interface LoadedKey {
  id: string;
  value: string | undefined;
  allowedHosts: string[] | null;
}

export class WorkspaceKeyResolver {
  private readonly byWorkspace = new Map<string, Promise<Map<string, LoadedKey>>>();
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The headers for a request to `destination` with references replaced; the same object when there are none. */
  headersFor(
    workspaceId: string,
    headers: Record<string, string>,
    destination: string,
  ): Record<string, string> | Promise<Record<string, string>> {
    let references = false;
    for (const name in headers) if (headers[name].includes('{{key:')) references = true;
    if (!references) return headers;
    return this.keysOf(workspaceId).then((keys) => this.substitute(headers, keys, destination));
  }

  forget(workspaceId: string): void {
    this.byWorkspace.delete(workspaceId);
  }

  private keysOf(workspaceId: string): Promise<Map<string, LoadedKey>> {
    let loaded = this.byWorkspace.get(workspaceId);
    if (!loaded) {
      loaded = loadSealedKeys(this.db, workspaceId).then(
        (rows) =>
          new Map(
            rows.map((row) => [
              row.name,
              { id: row.id, value: openKeyValue(row.value_enc, this.secret), allowedHosts: row.allowed_hosts },
            ]),
          ),
      );
      // A failed read is not kept: the next request tries again.
      loaded.catch(() => this.byWorkspace.delete(workspaceId));
      this.byWorkspace.set(workspaceId, loaded);
    }
    return loaded;
  }

  private substitute(
    headers: Record<string, string>,
    keys: Map<string, LoadedKey>,
    destination: string,
  ): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, template] of Object.entries(headers)) {
      // Set by the replace callback.
      let missing = false as boolean;
      const value = template.replace(WORKSPACE_KEY_REFERENCE, (_match, keyName: string) => {
        const key = keys.get(keyName);
        if (key?.value === undefined || !keyMayGoTo(key.allowedHosts, destination)) {
          missing = true;
          return '';
        }
        this.touch(key.id);
        return key.value;
      });
      if (!missing) out[name] = value;
    }
    return out;
  }

  private touch(keyId: string): void {
    const now = Date.now();
    const last = this.lastTouched.get(keyId);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
    this.lastTouched.set(keyId, now);
    touchWorkspaceKey(this.db, keyId).catch((error: unknown) =>
      this.log?.error({ err: error }, 'workspace key last use not written'),
    );
  }
}
