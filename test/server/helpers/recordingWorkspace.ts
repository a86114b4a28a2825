import { openTestDatabase, type TestDatabase } from './testDatabase';
import type { SessionOrigin } from '../../../src/server/recording/recorder';

/** A fresh test database with one user, workspace and server: where a Recorder under test records. */
export async function openRecordingWorkspace(tag: string): Promise<{ database: TestDatabase; origin: SessionOrigin }> {
  const database = await openTestDatabase();
  const [user] = await database.db.query<{ id: string }>(
    "insert into users (email, password_hash, first_name, last_name) values ($1, 'x', 'R', 'R') returning id",
    [`${tag}@example.com`],
  );
  const [ws] = await database.db.query<{ id: string }>(
    "insert into workspaces (name, owner_id) values ('W', $1) returning id",
    [user.id],
  );
  const [server] = await database.db.query<{ id: string }>(
    "insert into servers (workspace_id, name, url, proxy_key) values ($1, 'S', 'http://127.0.0.1:1/mcp', $2) returning id",
    [ws.id, `k-${tag}-test-key`],
  );
  return { database, origin: { workspaceId: ws.id, serverId: server.id, serverName: 'S' } };
}
