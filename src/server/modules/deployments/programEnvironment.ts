import path from 'node:path';
import type { Queryable } from '../../db/database';
import { badRequest } from '../../http/errors';
import { referencedKeys } from './configRules';

// What a deployed program gets: exactly the config's declared variables, with {{key:NAME}}
// references to workspace keys resolved, plus PATH and HOME — never Toolscope's own environment
// (TOOLSCOPE_SECRET, DATABASE_URL, cloud credentials…).
export interface EnvironmentBase {
  path: string;
  home: string;
}

/**
 * Resolves {{key:NAME}}. Workspace keys (issue 17) are not part of this Toolscope yet: until they
 * are, a reference cannot be resolved and is refused with a message that says so.
 */
export async function resolveKeyReferences(_db: Queryable, _workspaceId: string, env: Record<string, string>): Promise<Record<string, string>> {
  const names = referencedKeys(env);
  if (names.length === 0) return env;
  const message = `Workspace keys are not available on this Toolscope yet, so ${names.map((n) => `{{key:${n}}}`).join(', ')} cannot be resolved; put the value in the environment directly for now`;
  throw badRequest(message, { env: message });
}

export async function programEnvironment(db: Queryable, workspaceId: string, declared: Record<string, string>, base: EnvironmentBase): Promise<Record<string, string>> {
  const resolved = await resolveKeyReferences(db, workspaceId, declared);
  return { ...resolved, PATH: base.path, HOME: base.home };
}

/** The deployment's working folder: a folder per config under the data dir, then the config's cwd inside it. */
export function workingFolder(dataDir: string, configId: string, cwd: string): string {
  return path.join(dataDir, 'deployments', configId, cwd);
}
