import { randomUUID } from 'node:crypto';
import type { App } from '../../../src/server/app';
import { signedInAccessToken } from '../helpers/signedInToken';
import type { ToolCallDto } from '../../../src/contract/sessions';
import type { MemberRole } from '../../../src/contract/workspaces';

// Rows the notification tests need, written straight to the database (the sign-up and
// workspace modules are other suites' subject), and the bearer headers of their users.

export interface TestUser {
  id: string;
  auth: { authorization: string };
}

export async function createUser(app: App, name = 'Ada'): Promise<TestUser> {
  const [row] = await app.db.query<{ id: string }>(
    `insert into users (email, password_hash, first_name, last_name) values ($1, 'not-a-hash', $2, 'Tester') returning id`,
    [`${name.toLowerCase()}-${randomUUID()}@example.test`, name],
  );
  return {
    id: row.id,
    auth: { authorization: `Bearer ${await signedInAccessToken(app.db, row.id, app.config.secret)}` },
  };
}

export async function createWorkspace(
  app: App,
  owner: TestUser,
  members: { user: TestUser; role: MemberRole }[] = [],
  name = 'Team',
): Promise<string> {
  const [row] = await app.db.query<{ id: string }>(
    `insert into workspaces (name, workspace_type, owner_id) values ($1, 'team', $2) returning id`,
    [name, owner.id],
  );
  await app.db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
    row.id,
    owner.id,
  ]);
  for (const member of members) {
    await app.db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)`, [
      row.id,
      member.user.id,
      member.role,
    ]);
  }
  return row.id;
}

export async function createServer(app: App, workspaceId: string, name = 'weather-tools'): Promise<string> {
  const [row] = await app.db.query<{ id: string }>(
    `insert into servers (workspace_id, name, url, proxy_key) values ($1, $2, 'http://127.0.0.1:9/mcp', $3) returning id`,
    [workspaceId, name, randomUUID()],
  );
  return row.id;
}

/** A finished tool call as the recorder publishes it on the bus. */
export function toolCall(overrides: Partial<ToolCallDto> & Pick<ToolCallDto, 'sessionId' | 'serverId'>): ToolCallDto {
  const startedAt = new Date('2026-11-21T05:00:00.000Z');
  return {
    id: randomUUID(),
    serverName: null,
    jsonrpcId: '1',
    toolName: 'get_forecast',
    arguments: { city: 'Oslo' },
    result: { content: [] },
    errorMessage: null,
    status: 'ok',
    startedAt: startedAt.toISOString(),
    endedAt: new Date(startedAt.getTime() + 40).toISOString(),
    durationMs: 40,
    requestBytes: 80,
    responseBytes: 120,
    tokens: 30,
    meta: null,
    traceparent: null,
    ...overrides,
  };
}
