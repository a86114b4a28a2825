// The account a bench seeds its rows under: one user, their workspace (they own it) and `servers`
// registered servers with unreachable URLs (nothing probes them). Enterprise when the bench needs
// its limits out of the way (no monthly call quota, a 90-day raw window).
import { randomBytes, randomUUID } from 'node:crypto';

export async function seedBenchAccount(db, { servers = 1, enterprise = false } = {}) {
  const userId = randomUUID();
  const workspaceId = randomUUID();
  await db.query(
    `insert into users (id, email, password_hash, first_name, last_name) values ($1, $2, 'x', 'Bench', 'User')`,
    [userId, `${userId}@bench.test`],
  );
  if (enterprise) await db.query(`insert into subscriptions (user_id, plan) values ($1, 'enterprise')`, [userId]);
  await db.query(`insert into workspaces (id, name, owner_id) values ($1, 'Bench', $2)`, [workspaceId, userId]);
  await db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
    workspaceId,
    userId,
  ]);
  const serverIds = [];
  for (let i = 0; i < servers; i += 1) {
    const id = randomUUID();
    serverIds.push(id);
    await db.query(
      `insert into servers (id, workspace_id, name, url, proxy_key, status) values ($1, $2, $3, 'http://127.0.0.1:9/', $4, 'online')`,
      [id, workspaceId, `server-${i}`, randomBytes(16).toString('hex')],
    );
  }
  return { userId, workspaceId, serverIds };
}
