import path from 'node:path';
import type { Queryable } from '../db/database';
import { badRequest } from '../http/errors';
import { referencedKeys } from './configRules';
import { WORKSPACE_KEY_REFERENCE } from '../../contract/keys';
import { loadSealedKeys, openKeyValue } from '../data/keys/workspaceKeyStore';

// What a deployed program gets: exactly the config's declared variables, with {{key:NAME}}
// references to workspace keys resolved, plus PATH and HOME — never Toolscope's own environment
// (TOOLSCOPE_SECRET, DATABASE_URL, cloud credentials…).
export interface EnvironmentBase {
  path: string;
  home: string;
}

/**
 * Resolves {{key:NAME}} references through the workspace's keys (docs/access.md): an unknown name,
 * or a key sealed under another secret, refuses the config or the deploy with a message that says
 * which and what to do.
 */
export async function resolveKeyReferences(
  db: Queryable,
  workspaceId: string,
  env: Record<string, string>,
  secret: string,
): Promise<Record<string, string>> {
  const names = referencedKeys(env);
  if (names.length === 0) return env;
  const keys = new Map((await loadSealedKeys(db, workspaceId)).map((key) => [key.name, key]));
  const missing = names.filter((name) => !keys.has(name));
  if (missing.length > 0) {
    const message = `Unknown workspace key${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Add ${missing.length > 1 ? 'them' : 'it'} in Workspace Settings → Security, then refer to it as {{key:NAME}}`;
    throw badRequest(message, { env: message });
  }
  const values = new Map<string, string>();
  for (const name of names) {
    const stored = keys.get(name);
    const value = stored && openKeyValue(stored.value_enc, secret);
    if (value === undefined) {
      const message = `The workspace key ${name} cannot be read (it was stored under another secret); store its value again`;
      throw badRequest(message, { env: message });
    }
    values.set(name, value);
  }
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      value.replace(WORKSPACE_KEY_REFERENCE, (match, key: string) => values.get(key) ?? match),
    ]),
  );
}

export async function programEnvironment(
  db: Queryable,
  workspaceId: string,
  declared: Record<string, string>,
  base: EnvironmentBase & { secret: string },
): Promise<Record<string, string>> {
  const resolved = await resolveKeyReferences(db, workspaceId, declared, base.secret);
  return { ...resolved, PATH: base.path, HOME: base.home };
}

/** The deployment's working folder: a folder per config under the data dir, then the config's cwd inside it. */
export function workingFolder(dataDir: string, configId: string, cwd: string): string {
  return path.join(dataDir, 'deployments', configId, cwd);
}
