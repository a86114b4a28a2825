import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildTestApp } from '../helpers/testApp';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';
import { createMemberWithWorkspace, insertServerRow } from './support/workspaceFixture';
import { startFixtureMcpServer, type FixtureMcpServer } from './support/fixtureMcpServer';
import { freePort } from './support/freePort';
import { openSse } from './support/sseReader';

jest.setTimeout(60_000);

interface ServerState {
  status: string;
  last_health_status: boolean | null;
  last_checked: Date | null;
  last_error: string | null;
}

describe(`health monitor against a real MCP server (${engineName})`, () => {
  let database: TestDatabase;
  let fixture: FixtureMcpServer;
  const stateOf = async (serverId: string) =>
    (
      await database.db.query<ServerState>(
        'select status, last_health_status, last_checked, last_error from servers where id = $1',
        [serverId],
      )
    )[0];

  beforeAll(async () => {
    database = await openTestDatabase();
    fixture = await startFixtureMcpServer();
  });
  afterAll(async () => {
    await fixture.stop();
    await database.drop();
  });

  it('marks a server offline when it stops and online when it returns, live, with a stored notification each time', async () => {
    const t = await buildTestApp({ healthIntervalMs: 150 }, database);
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Ada');
      const serverId = await insertServerRow(database.db, member.workspaceId, { url: fixture.url, name: 'Calculator' });
      const port = (t.app.server.address() as AddressInfo).port;
      const live = await openSse(
        `http://127.0.0.1:${port}/api/v1/workspaces/${member.workspaceId}/platform/sse?token=${member.token}`,
      );
      try {
        const online = await live.waitFor((m) => m.type === 'server_updated' && m.data.status === 'online');
        expect(online.data).toMatchObject({
          id: serverId,
          status: 'online',
          lastHealthStatus: true,
          name: 'Calculator',
        });
        // The first check finding the server up is not news: no notification.
        expect(live.messages.some((m) => m.type === 'notification')).toBe(false);
        const firstChecked = (await stateOf(serverId)).last_checked as Date;

        await fixture.stop();
        const offline = await live.waitFor((m) => m.type === 'notification' && m.data.metadata?.status === 'offline');
        expect(offline.data).toMatchObject({
          type: 'tool_server_status',
          severity: 'error',
          title: 'Server Offline',
          actionUrl: `/servers?serverId=${serverId}`,
          metadata: { serverId, status: 'offline', serverName: 'Calculator' },
        });
        expect(offline.data.message).toMatch(/^Calculator is not responding to health checks/);
        await live.waitFor((m) => m.type === 'server_updated' && m.data.status === 'offline');
        const down = await stateOf(serverId);
        expect(down).toMatchObject({ status: 'offline', last_health_status: false });
        expect(down.last_error).toBeTruthy();
        expect(new Date(down.last_checked as Date).getTime()).toBeGreaterThan(new Date(firstChecked).getTime());

        await fixture.start();
        const back = await live.waitFor((m) => m.type === 'notification' && m.data.metadata?.status === 'online');
        expect(back.data).toMatchObject({
          type: 'tool_server_status',
          severity: 'success',
          metadata: { serverId, status: 'online', serverName: 'Calculator' },
        });
        expect(await stateOf(serverId)).toMatchObject({ status: 'online', last_health_status: true, last_error: null });

        const stored = await database.db.query<{ type: string; metadata: Record<string, unknown>; action_url: string }>(
          'select type, metadata, action_url from notifications where user_id = $1 order by created_at',
          [member.userId],
        );
        expect(stored.map((n) => n.metadata.status)).toEqual(['offline', 'online']);
        expect(
          stored.every((n) => n.type === 'tool_server_status' && n.action_url === `/servers?serverId=${serverId}`),
        ).toBe(true);
      } finally {
        live.close();
      }
    } finally {
      await t.close();
    }
  });

  it('checkNow probes one server at once and tells the servers API what it found', async () => {
    const t = await buildTestApp({}, database);
    try {
      const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Bob');
      const serverId = await insertServerRow(database.db, member.workspaceId, { url: fixture.url, name: 'Calc' });
      const pingsBefore = fixture.calls.get('ping') ?? 0;
      const outcome = await t.app.healthMonitor.checkNow(serverId);
      expect(outcome).toMatchObject({ healthy: true, error: null });
      expect(outcome.latencyMs).toEqual(expect.any(Number));
      expect(fixture.calls.get('ping')).toBe(pingsBefore + 1);
      expect(await stateOf(serverId)).toMatchObject({ status: 'online', last_health_status: true });

      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${member.workspaceId}/servers/${serverId}/health`,
        headers: { authorization: `Bearer ${member.token}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        healthy: true,
        error: null,
        server: { id: serverId, status: 'online', lastHealthStatus: true },
      });
    } finally {
      await t.close();
    }
  });

  it('notifies when the very first check finds a server down', async () => {
    const t = await buildTestApp({}, database);
    try {
      const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Cy');
      const closedPort = await freePort();
      const serverId = await insertServerRow(database.db, member.workspaceId, {
        url: `http://127.0.0.1:${closedPort}/mcp`,
        name: 'Gone',
      });
      const published: { type: string; data: unknown }[] = [];
      const unsubscribe = t.app.bus.subscribe(member.workspaceId, (m) => published.push(m));
      const outcome = await t.app.healthMonitor.checkNow(serverId);
      unsubscribe();
      expect(outcome.healthy).toBe(false);
      expect(outcome.error).toBeTruthy();
      expect(published.find((m) => m.type === 'notification')?.data).toMatchObject({
        title: 'Server Offline',
        metadata: { serverId, status: 'offline', serverName: 'Gone' },
      });
      expect(published.find((m) => m.type === 'server_updated')?.data).toMatchObject({
        id: serverId,
        status: 'offline',
        lastHealthStatus: false,
      });

      // Still down on the next check: no change, so no notification and no server_updated — only
      // server_checked with the new check time, so "checked … ago" labels follow the probes.
      const firstChecked = (await stateOf(serverId)).last_checked!;
      const again: { type: string; data: unknown }[] = [];
      const stop = t.app.bus.subscribe(member.workspaceId, (m) => again.push(m));
      await t.app.healthMonitor.checkNow(serverId);
      stop();
      const checkedAt = (await stateOf(serverId)).last_checked!;
      expect(again.map((m) => m.type)).toEqual(['server_checked']);
      expect(again[0].data).toEqual({ serverId, lastChecked: checkedAt.toISOString() });
      expect(checkedAt.getTime()).toBeGreaterThanOrEqual(firstChecked.getTime());
    } finally {
      await t.close();
    }
  });

  it('records a server as offline even when its error text carries a NUL (which PostgreSQL cannot store)', async () => {
    const upstream = http.createServer((_request, response) =>
      response.writeHead(500, { 'content-type': 'text/plain' }).end('broken\u0000upstream'),
    );
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const t = await buildTestApp({}, database);
    try {
      const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Nul');
      const port = (upstream.address() as AddressInfo).port;
      const serverId = await insertServerRow(database.db, member.workspaceId, {
        url: `http://127.0.0.1:${port}/mcp`,
        name: 'Nul',
      });
      const outcome = await t.app.healthMonitor.checkNow(serverId);
      expect(outcome.healthy).toBe(false);
      const stored = await stateOf(serverId);
      expect(stored).toMatchObject({ status: 'offline', last_health_status: false });
      // The upstream's own words are never stored or shown: its status class and a fixed reason.
      expect(stored.last_error).toBe('HTTP 5xx: the destination failed');
    } finally {
      await t.close();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it('never reaches a cloud metadata address and bounds a hanging upstream', async () => {
    const hanging = net.createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const t = await buildTestApp({ upstreamTimeoutMs: 400 }, database);
    try {
      const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Dee');
      const metadataId = await insertServerRow(database.db, member.workspaceId, {
        url: 'http://169.254.169.254/mcp',
        name: 'Metadata',
      });
      const metadata = await t.app.healthMonitor.checkNow(metadataId);
      expect(metadata.healthy).toBe(false);
      expect(metadata.error).toMatch(/not allowed/i);

      const hangingId = await insertServerRow(database.db, member.workspaceId, {
        url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/mcp`,
        name: 'Hangs',
      });
      const outcome = await t.app.healthMonitor.checkNow(hangingId);
      expect(outcome).toMatchObject({ healthy: false });
      expect(await stateOf(hangingId)).toMatchObject({ status: 'offline', last_health_status: false });
    } finally {
      await t.close();
      hanging.close();
    }
  });

  it('abandons a probe in flight when the app closes, recording nothing', async () => {
    const hanging = net.createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const t = await buildTestApp({}, database);
    try {
      const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Flo');
      const serverId = await insertServerRow(database.db, member.workspaceId, {
        url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/mcp`,
        name: 'Slow',
      });
      const connected = new Promise((resolve) => hanging.once('connection', resolve));
      const check = t.app.healthMonitor.checkNow(serverId);
      await connected;
      await t.app.close();
      expect(await check).toEqual({ healthy: false, latencyMs: null, error: 'Cancelled: Toolscope is shutting down' });
      expect(await stateOf(serverId)).toMatchObject({
        status: 'offline',
        last_health_status: null,
        last_checked: null,
      });
    } finally {
      await t.close();
      hanging.close();
    }
  });

  if (engineName === 'postgres') {
    it('with two instances on one PostgreSQL, a round probes each server once', async () => {
      const a = await buildTestApp({}, database);
      const b = await buildTestApp({}, database);
      try {
        await database.db.query('update servers set last_checked = now()');
        const member = await createMemberWithWorkspace(database.db, a.config.secret, 'Eve');
        await insertServerRow(database.db, member.workspaceId, { url: fixture.url, name: 'Shared' });
        const pingsBefore = fixture.calls.get('ping') ?? 0;
        await Promise.all([a.app.healthMonitor.runRound(), b.app.healthMonitor.runRound()]);
        expect(fixture.calls.get('ping')).toBe(pingsBefore + 1);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }
});
