import { randomUUID } from 'node:crypto';
import type { Database } from '../../../../src/server/db/database';
import { signedInAccessToken } from '../../helpers/signedInToken';
import { generateProxyKey } from '../../../../src/server/data/servers/store';

// Users, workspaces and servers written straight to the database, so the monitor's tests do not
// depend on the sign-up or servers APIs (which have their own tests).
export interface Member {
  userId: string;
  workspaceId: string;
  token: string;
}

export async function createMemberWithWorkspace(db: Database, secret: string, name = 'Ada'): Promise<Member> {
  const email = `${name.toLowerCase()}-${randomUUID()}@example.test`;
  const [user] = await db.query<{ id: string }>(
    `insert into users (email, password_hash, first_name, last_name) values ($1, 'not-a-real-hash', $2, 'Tester') returning id`,
    [email, name],
  );
  const [workspace] = await db.query<{ id: string }>(
    `insert into workspaces (name, owner_id) values ($1, $2) returning id`,
    [`${name}'s workspace`, user.id],
  );
  await db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
    workspace.id,
    user.id,
  ]);
  return { userId: user.id, workspaceId: workspace.id, token: await signedInAccessToken(db, user.id, secret) };
}

export async function addMember(db: Database, workspaceId: string, userId: string): Promise<void> {
  await db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`, [
    workspaceId,
    userId,
  ]);
}

export async function insertServerRow(
  db: Database,
  workspaceId: string,
  input: { url: string; name: string; transport?: 'streamable-http' | 'sse' },
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `insert into servers (workspace_id, name, url, transport, proxy_key) values ($1, $2, $3, $4, $5) returning id`,
    [workspaceId, input.name, input.url, input.transport ?? 'streamable-http', generateProxyKey()],
  );
  return row.id;
}
