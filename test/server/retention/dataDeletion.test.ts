import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { foldAllPendingTraffic } from '../../../src/server/recording/trafficFold';
import type { ServerDto } from '../../../src/contract/servers';

jest.setTimeout(120_000);

// Issue 33 item 4: deleting a workspace, or an account with its personal workspace, leaves
// nothing of it — no row in any table, no journal record, no secret. The search is not a list of
// tables this test knows: every table of the database is read as text for the workspace's ids,
// the words its agent sent and its secrets.

describe(`deletion that deletes (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let journalDir: string;

  const as = (account: TestAccount) => ({
    inject: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(account.accessToken), payload }),
  });

  /** Tables (and how many rows of each) whose text holds `needle`. */
  async function tablesHolding(needle: string): Promise<string[]> {
    const tables = await t.database.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    const found: string[] = [];
    for (const { table_name } of tables) {
      const [row] = await t.database.db.query<{ n: number }>(
        `select count(*)::int as n from "${table_name}" x where position($1 in x::text) > 0`,
        [needle],
      );
      if (row.n > 0) found.push(`${table_name} (${row.n})`);
    }
    return found;
  }

  /** Journal files whose bytes hold `needle`. */
  function journalFilesHolding(needle: string): string[] {
    return fs
      .readdirSync(journalDir)
      .filter((name) => fs.statSync(path.join(journalDir, name)).isFile())
      .filter((name) => fs.readFileSync(path.join(journalDir, name)).includes(needle));
  }

  /** Registers a server with an upstream secret in the workspace, adds a workspace key, and records a session that says `marker`. */
  async function fillWorkspace(account: TestAccount, workspaceId: string, marker: string, secret: string) {
    const created = await as(account).inject('POST', `/api/v1/workspaces/${workspaceId}/servers`, {
      url: upstream.url,
      name: `server-${marker}`,
      headers: { Authorization: `Bearer ${secret}-upstream` },
    });
    expect(created.statusCode).toBe(201);
    const server = created.json<ServerDto>();
    const key = await as(account).inject('POST', `/api/v1/workspaces/${workspaceId}/keys`, {
      name: 'DELETION_KEY',
      value: `${secret}-workspace-key`,
    });
    expect(key.statusCode).toBe(201);
    const client = new Client({ name: `agent-${marker}`, version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(new URL(server.proxyUrl).pathname, t.base));
    await client.connect(transport);
    await client.callTool({ name: 'echo', arguments: { text: `the words ${marker}` } });
    await transport.terminateSession();
    await client.close();
    await t.app.recorder.flush();
    await foldAllPendingTraffic(t.database.db);
    return server;
  }

  beforeAll(async () => {
    journalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-deletion-journal-'));
    t = await startProxyApp({ journalDir, journalFsyncMs: 0 });
    upstream = await startStreamableUpstream({ json: true, stateful: true });
  });
  afterAll(async () => {
    await (upstream as SdkUpstream | undefined)?.close();
    await (t as ProxyTestApp | undefined)?.close();
    fs.rmSync(journalDir, { recursive: true, force: true });
  });

  it('a deleted workspace leaves no row, journal record or secret', async () => {
    const owner = t.account;
    await t.database.db.query("update subscriptions set plan = 'pro' where user_id = $1", [owner.user.id]);
    const team = await as(owner).inject('POST', '/api/v1/workspaces', { name: 'Doomed', workspaceType: 'team' });
    expect(team.statusCode).toBe(201);
    const workspaceId = team.json<{ id: string }>().id;
    const marker = `doomed${Date.now()}`;
    const secret = `s3cret${Date.now()}`;
    const server = await fillWorkspace(owner, workspaceId, marker, secret);

    // What is there before: the proof that the search below can find it.
    expect(await tablesHolding(marker)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(messages|tool_calls)/)]),
    );
    expect(await tablesHolding(workspaceId)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^traffic_minutes/),
        expect.stringMatching(/^sessions/),
        // Secrets are stored sealed (their text is not searchable): their rows are found by the workspace's id.
        expect.stringMatching(/^workspace_keys/),
        expect.stringMatching(/^servers/),
      ]),
    );
    expect(journalFilesHolding(marker).length).toBeGreaterThan(0);

    const deleted = await as(owner).inject('DELETE', `/api/v1/workspaces/${workspaceId}`);
    expect(deleted.statusCode).toBe(204);

    // The tombstone names the id (for the expiry job's sweep), nothing else does.
    expect(await tablesHolding(workspaceId)).toEqual(['deleted_workspaces (1)']);
    expect(await tablesHolding(server.id)).toEqual([]);
    expect(await tablesHolding(marker)).toEqual([]);
    expect(await tablesHolding(secret)).toEqual([]);
    expect(journalFilesHolding(marker)).toEqual([]);
    expect(journalFilesHolding(workspaceId)).toEqual([]);
    // The proxy URL is gone too.
    const agent = await fetch(new URL(new URL(server.proxyUrl).pathname, t.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(agent.status).toBe(404);
  });

  it('a rollup written for a deleted workspace afterwards is swept by the expiry job', async () => {
    const [{ workspace_id }] = await t.database.db.query<{ workspace_id: string }>(
      'select workspace_id from deleted_workspaces limit 1',
    );
    await t.database.db.query(
      `insert into traffic_minutes (workspace_id, bucket, server_id, tool_name, client_name, calls)
       values ($1, date_trunc('minute', now()), gen_random_uuid(), 'late', 'late', 1)`,
      [workspace_id],
    );
    await t.app.retention.runOnce(new Date());
    expect(await tablesHolding(workspace_id)).toEqual(['deleted_workspaces (1)']);
    await t.app.retention.runOnce(new Date(Date.now() + 8 * 86_400_000));
    expect(await tablesHolding(workspace_id)).toEqual([]);
  });

  it('a deleted account takes its personal workspace and everything of it', async () => {
    const leaving = await registerAccount(t.app);
    const marker = `leaving${Date.now()}`;
    const secret = `acct${Date.now()}`;
    await fillWorkspace(leaving, leaving.workspaceId, marker, secret);
    expect((await tablesHolding(marker)).length).toBeGreaterThan(0);

    const wrong = await as(leaving).inject('DELETE', '/api/v1/users/me', { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The password is not correct');
    expect((await tablesHolding(leaving.user.id)).length).toBeGreaterThan(0);

    const gone = await as(leaving).inject('DELETE', '/api/v1/users/me', { password: leaving.password });
    expect(gone.statusCode).toBe(204);
    expect(await tablesHolding(leaving.user.id)).toEqual([]);
    expect(await tablesHolding(leaving.email)).toEqual([]);
    expect(await tablesHolding(leaving.workspaceId)).toEqual(['deleted_workspaces (1)']);
    expect(await tablesHolding(marker)).toEqual([]);
    expect(await tablesHolding(secret)).toEqual([]);
    expect(journalFilesHolding(marker)).toEqual([]);
    const me = await as(leaving).inject('GET', '/api/v1/users/me');
    expect(me.statusCode).toBe(401);
  });

  it('an account owning a team workspace others use is not deleted until that is settled', async () => {
    const owner = await registerAccount(t.app);
    const member = await registerAccount(t.app);
    await t.database.db.query("update subscriptions set plan = 'pro' where user_id = $1", [owner.user.id]);
    const team = (
      await as(owner).inject('POST', '/api/v1/workspaces', { name: 'Shared', workspaceType: 'team' })
    ).json<{
      id: string;
    }>();
    await t.database.db.query("insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')", [
      team.id,
      member.user.id,
    ]);
    const refused = await as(owner).inject('DELETE', '/api/v1/users/me', { password: owner.password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('Shared');
    expect((await tablesHolding(owner.user.id)).length).toBeGreaterThan(0);
  });
});
