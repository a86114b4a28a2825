// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { randomUUID } from 'node:crypto';

import { bearer, registerAccount } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName, openTestDatabase } from '../helpers/testDatabase';
import { MIGRATIONS } from '../../../src/server/db/migrations';

describe(`health routes, unauthenticated (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ version: '9.8.7' });
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const lastMigration = MIGRATIONS[MIGRATIONS.length - 1].id;

  it('GET /api/health reports healthy with the version, uptime and each check', async () => {
    const res = await get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'healthy',
      version: '9.8.7',
      uptimeSeconds: expect.any(Number),
      checks: { api: 'healthy', database: 'healthy', migrations: 'healthy', recorder: 'healthy' },
    });
  });

  it('GET /api/v1/services/health lists every service', async () => {
    const res = await get('/api/v1/services/health');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('healthy');
    expect(body.services.map((s: { name: string }) => s.name)).toEqual(['api', 'database', 'migrations', 'recorder']);
    expect(body.services.find((s: { name: string }) => s.name === 'database')).toMatchObject({
      status: 'healthy',
      details: { engine: t.database.db.engine },
    });
  });

  it.each(['api', 'database', 'migrations', 'recorder'])(
    'GET /api/v1/services/%s/health reports that service',
    async (name) => {
      const res = await get(`/api/v1/services/${name}/health`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name,
        status: 'healthy',
        message: expect.any(String),
        checkedAt: expect.any(String),
      });
    },
  );

  it('answers 404 for an unknown service, naming the known ones', async () => {
    const res = await get('/api/v1/services/nope/health');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      message: "Unknown service 'nope'. Known services: api, database, migrations, recorder",
      code: 'not_found',
    });
  });

  it("reports the recorder's queue and drop counts, so lost traffic is visible to operators", async () => {
    const res = await get('/api/v1/services/recorder/health');
    expect(res.json()).toMatchObject({
      name: 'recorder',
      status: 'healthy',
      message: 'Recording',
      details: { enabled: true, queuedRows: 0, dropped: { messages: 0, toolCalls: 0 }, writeFailed: false },
    });
    // The text of a write error quotes the database: only the server's log has it.
    expect(res.json().details).not.toHaveProperty('lastError');
  });

  it('GET /api/v1/system/health gives the system overview; the runtime and memory only to a signed-in caller', async () => {
    const res = await get('/api/v1/system/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'healthy',
      version: '9.8.7',
      database: { engine: t.database.db.engine, reachable: true, pendingMigrations: [] },
    });
    expect(res.json()).not.toHaveProperty('nodeVersion');
    expect(res.json()).not.toHaveProperty('memory');
    // A forged or expired token counts as none.
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/v1/system/health',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(forged.json()).not.toHaveProperty('nodeVersion');

    const account = await registerAccount(t.app, { email: 'health-operator@example.com' });
    const signedIn = await t.app.inject({
      method: 'GET',
      url: '/api/v1/system/health',
      headers: bearer(account.accessToken),
    });
    expect(signedIn.json()).toMatchObject({
      nodeVersion: process.version,
      memory: { rssBytes: expect.any(Number), heapUsedBytes: expect.any(Number) },
    });
  });

  it('reports a migration that is not applied as unhealthy (503), and healthy again once applied', async () => {
    await t.database.db.query('delete from schema_migrations where id = $1', [lastMigration]);
    try {
      const res = await get('/api/health');
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toMatchObject({ database: 'healthy', migrations: 'unhealthy' });
      const system = await get('/api/v1/system/health');
      expect(system.json().database.pendingMigrations).toEqual([lastMigration]);
      expect((await get('/api/v1/services/migrations/health')).statusCode).toBe(503);
    } finally {
      await t.database.db.query('insert into schema_migrations (id) values ($1)', [lastMigration]);
    }
    expect((await get('/api/health')).statusCode).toBe(200);
  });
});

describe(`health with the database gone (${engineName})`, () => {
  // Issue 32: /api/health answered 503 on every instance for the whole of a database outage, so a
  // balancer polling it would have pulled every instance while the proxy could still answer.
  it('stays 200 while the instance can serve, and the detail says the database is away and recording behind since when', async () => {
    const real = await openTestDatabase();
    let reachable = true;
    // The same database, except that once `reachable` is false every query fails as a dropped
    // connection would.
    const db = new Proxy(real.db, {
      get(target, property) {
        if (!reachable && (property === 'query' || property === 'transaction' || property === 'runPrepared'))
          return () =>
            Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), { code: 'ECONNREFUSED' }));
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const t = await buildTestApp({}, { db, drop: () => real.drop() });
    try {
      reachable = false;
      const before = Date.now();
      // A session and a message recorded while the database is away: they wait for it.
      const recorder = t.app.recorder;
      const session = recorder.startSession(
        { workspaceId: randomUUID(), serverId: randomUUID(), serverName: null },
        { transport: 'streamable-http' },
      );
      recorder.record(session, 'client_to_server', { jsonrpc: '2.0', method: 'notifications/initialized' }, 60);
      const system = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/system/health' })).json();
      for (let i = 0; i < 500 && (await system()).recorder?.writeFailingSince == null; i++)
        await new Promise((r) => setTimeout(r, 20));

      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'healthy',
        checks: { api: 'healthy', database: 'unhealthy', migrations: 'unhealthy', recorder: 'healthy' },
      });
      const detail = await t.app.inject({ method: 'GET', url: '/api/v1/system/health' });
      expect(detail.statusCode).toBe(503);
      const body = detail.json();
      expect(body).toMatchObject({
        serving: true,
        database: { reachable: false },
        recorder: { behind: true, waitingRows: 1, setAside: 0 },
      });
      for (const since of [body.recorder.writeFailingSince, body.recorder.oldestWaitingSince])
        expect(Date.parse(since)).toBeGreaterThanOrEqual(before - 1000);
      const service = await t.app.inject({ method: 'GET', url: '/api/v1/services/database/health' });
      expect(service.statusCode).toBe(503);
      expect(service.json().message).toBe(`${real.db.engine} unreachable`);
      expect(service.body).not.toContain('10.0.0.1');
      expect(detail.body).not.toContain('10.0.0.1');
      const recorderService = (await t.app.inject({ method: 'GET', url: '/api/v1/services/recorder/health' })).json();
      expect(recorderService.message).toMatch(/^Behind: 1 row\(s\) waiting for the database.*writes failing since/);

      // Back: the waiting rows are written — here refused on their merits (their workspace does not
      // exist): set aside and counted, and recording is no longer behind.
      reachable = true;
      for (let i = 0; i < 1000 && (await system()).recorder?.behind !== false; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect((await system()).recorder).toMatchObject({
        behind: false,
        waitingRows: 0,
        writeFailingSince: null,
        setAside: 1,
      });
    } finally {
      reachable = true;
      await t.app.close();
      await real.drop();
    }
  });
});
