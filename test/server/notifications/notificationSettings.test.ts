import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../src/contract/notifications';
import { NotificationSettingsStore } from '../../../src/server/notifications/NotificationSettingsStore';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { createUser, createWorkspace, type TestUser } from './fixtures';

// Opening PGlite on a busy shared machine can take longer than Jest's default 5 s.
jest.setTimeout(60_000);

describe(`notification settings (${engineName})`, () => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let workspaceId: string;
  const url = () => `/api/v1/workspaces/${workspaceId}/notification-settings`;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.app, 'Owner');
    admin = await createUser(t.app, 'Admin');
    member = await createUser(t.app, 'Member');
    outsider = await createUser(t.app, 'Outsider');
    workspaceId = await createWorkspace(t.app, owner, [
      { user: admin, role: 'admin' },
      { user: member, role: 'member' },
    ]);
  });
  afterAll(() => t.close());

  it('starts from the defaults', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(), headers: member.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('lets owners and admins change some fields and keeps the others', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: admin.auth,
      payload: { sessionErrorRatePercent: 10, mutedTypes: ['deployment_update'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      sessionErrorRatePercent: 10,
      mutedTypes: ['deployment_update'],
    });
    await t.app.inject({ method: 'PUT', url: url(), headers: owner.auth, payload: { sessionP95LatencyMs: 2000 } });
    expect((await t.app.inject({ method: 'GET', url: url(), headers: member.auth })).json()).toMatchObject({
      sessionErrorRatePercent: 10,
      sessionP95LatencyMs: 2000,
      mutedTypes: ['deployment_update'],
    });
    const [row] = await t.app.db.query<{ name: string }>('select name from workspaces where id = $1', [workspaceId]);
    expect(row.name).toBe('Team');
  });

  it('keeps a change another instance made while this one had the settings cached', async () => {
    await t.app.inject({ method: 'GET', url: url(), headers: owner.auth });
    // Another instance (same database, its own cache) sets the grouping window.
    const otherInstance = new NotificationSettingsStore(t.app.db);
    await otherInstance.update(workspaceId, { groupingWindowMinutes: 15 });

    const res = await t.app.inject({ method: 'PUT', url: url(), headers: owner.auth, payload: { sessionMinCalls: 3 } });
    expect(res.json()).toMatchObject({ groupingWindowMinutes: 15, sessionMinCalls: 3 });
    expect(await new NotificationSettingsStore(t.app.db).get(workspaceId)).toMatchObject({
      groupingWindowMinutes: 15,
      sessionMinCalls: 3,
    });
  });

  it('refuses members (403), non-members (404) and bad values (400), changing nothing', async () => {
    const before = (await t.app.inject({ method: 'GET', url: url(), headers: owner.auth })).json();

    const asMember = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: member.auth,
      payload: { sessionMinCalls: 1 },
    });
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json()).toEqual({ message: 'Only workspace owners and admins can do this', code: 'forbidden' });

    expect((await t.app.inject({ method: 'GET', url: url(), headers: outsider.auth })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'PUT', url: url(), headers: outsider.auth, payload: { sessionMinCalls: 1 } }))
        .statusCode,
    ).toBe(404);

    for (const payload of [
      { sessionErrorRatePercent: 0 },
      { sessionMinCalls: 1.5 },
      { mutedTypes: ['nope'] },
      { groupingWindowMinutes: -1 },
      { unknownSetting: 1 },
    ]) {
      const res = await t.app.inject({ method: 'PUT', url: url(), headers: owner.auth, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await t.app.inject({ method: 'GET', url: url(), headers: owner.auth })).json()).toEqual(before);
  });

  it('reads the settings once for a burst of callers, and again after a failed read', async () => {
    let reads = 0;
    let failNext = false;
    const counting = {
      ...t.app.db,
      query: async <T>(sql: string, params?: unknown[]) => {
        reads += 1;
        if (failNext) {
          failNext = false;
          throw new Error('connection lost');
        }
        return t.app.db.query<T>(sql, params);
      },
    };
    // The session-health monitor asks for every session of a flush at once: one read serves them all.
    const store = new NotificationSettingsStore(counting);
    const burst = await Promise.all(Array.from({ length: 32 }, () => store.get(workspaceId)));
    expect(reads).toBe(1);
    expect(new Set(burst.map((settings) => JSON.stringify(settings))).size).toBe(1);

    const failing = new NotificationSettingsStore(counting);
    failNext = true;
    await expect(failing.get(workspaceId)).rejects.toThrow('connection lost');
    await expect(failing.get(workspaceId)).resolves.toEqual(burst[0]);
    expect(reads).toBe(3);
  });
});
