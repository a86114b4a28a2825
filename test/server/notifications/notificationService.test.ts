import type { LiveMessage } from '../../../src/contract/live';
import { NotificationDto } from '../../../src/contract/notifications';
import { NotificationService, type RaiseInput } from '../../../src/server/notifications/NotificationService';
import { NotificationSettingsStore } from '../../../src/server/notifications/NotificationSettingsStore';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { createUser, createWorkspace, type TestUser } from './fixtures';

// Opening PGlite on a busy shared machine can take longer than Jest's default 5 s.
jest.setTimeout(60_000);

describe(`NotificationService (${engineName})`, () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let workspaceId: string;
  let otherWorkspaceId: string;
  let published: { workspaceId: string; message: LiveMessage }[];
  let unsubscribe: () => void;

  beforeAll(async () => {
    t = await buildTestApp();
    ada = await createUser(t.app, 'Ada');
    bob = await createUser(t.app, 'Bob');
    workspaceId = await createWorkspace(t.app, ada, [{ user: bob, role: 'member' }]);
    otherWorkspaceId = await createWorkspace(t.app, bob, [], 'Bob solo');
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.app.db.query('delete from notifications');
    published = [];
    unsubscribe = t.app.bus.subscribeAll((ws, message) => published.push({ workspaceId: ws, message }));
  });
  afterEach(() => unsubscribe());

  const offline = (): RaiseInput => ({
    workspaceId,
    type: 'tool_server_status',
    severity: 'error',
    title: 'Server Offline',
    message: 'weather is not responding to health checks',
    actionUrl: '/servers',
    metadata: { serverId: 's1', status: 'offline', serverName: 'weather' },
    groupKey: 'server:s1:offline',
  });

  /** A service on the app's database and bus whose clock the test moves. */
  function serviceAt(start: string) {
    let now = new Date(start);
    const service = new NotificationService({
      db: t.app.db,
      bus: t.app.bus,
      settings: new NotificationSettingsStore(t.app.db),
      clock: () => now,
    });
    return { service, advanceMinutes: (m: number) => (now = new Date(now.getTime() + m * 60_000)) };
  }

  const rowsOf = (user: TestUser) =>
    t.app.db.query<{ title: string; occurrences: number; is_read: boolean }>(
      'select title, occurrences, is_read from notifications where user_id = $1 order by seq',
      [user.id],
    );

  it('stores one notification per workspace member and pushes each on the live stream to its recipient only', async () => {
    const created = await t.app.notifications.raise(offline());
    expect(created).toHaveLength(2);
    expect(await rowsOf(ada)).toHaveLength(1);
    expect(await rowsOf(bob)).toHaveLength(1);

    const notifications = published.filter((p) => p.message.type === 'notification');
    expect(notifications).toHaveLength(2);
    expect(new Set(notifications.map((p) => p.message.userId))).toEqual(new Set([ada.id, bob.id]));
    for (const { workspaceId: ws, message } of notifications) {
      expect(ws).toBe(workspaceId);
      const data = NotificationDto.parse(message.data);
      expect(data).toMatchObject({
        type: 'tool_server_status',
        severity: 'error',
        isRead: false,
        isArchived: false,
        actionUrl: '/servers',
        metadata: { serverId: 's1', status: 'offline', serverName: 'weather' },
      });
    }
  });

  it('groups repeats of one condition within the window into the unread notification', async () => {
    const { service, advanceMinutes } = serviceAt('2026-11-21T06:00:00Z');
    await service.raise(offline());
    advanceMinutes(10);
    const again = await service.raise({ ...offline(), message: 'weather is still not responding' });
    advanceMinutes(59);
    await service.raise(offline());

    expect(await rowsOf(ada)).toEqual([{ title: 'Server Offline', occurrences: 3, is_read: false }]);
    const bumped = again.find((n) => n.occurrences === 2)!;
    expect(bumped.message).toBe('weather is still not responding');
    expect(bumped.updatedAt).toBe('2026-11-21T06:10:00.000Z');
    expect(bumped.createdAt).toBe('2026-11-21T06:00:00.000Z');
    // Every bump is pushed too, so an open bell shows the latest count.
    expect(published.filter((p) => p.message.type === 'notification')).toHaveLength(6);
  });

  it('starts a new notification after the window, once the old one is read, or for another condition', async () => {
    const { service, advanceMinutes } = serviceAt('2026-11-21T06:00:00Z');
    await service.raise(offline());
    advanceMinutes(61);
    await service.raise(offline());
    expect((await rowsOf(ada)).map((r) => r.occurrences)).toEqual([1, 1]);

    await t.app.db.query('update notifications set is_read = true where user_id = $1', [ada.id]);
    await service.raise(offline());
    expect((await rowsOf(ada)).map((r) => r.occurrences)).toEqual([1, 1, 1]);
    // Bob never read his, so his latest one is bumped instead.
    expect((await rowsOf(bob)).map((r) => r.occurrences)).toEqual([1, 2]);

    await service.raise({ ...offline(), groupKey: 'server:s2:offline' });
    expect(await rowsOf(ada)).toHaveLength(4);
  });

  it('uses the workspace’s grouping window', async () => {
    await t.app.notificationSettings.update(workspaceId, { groupingWindowMinutes: 5 });
    try {
      const { service, advanceMinutes } = serviceAt('2026-11-21T06:00:00Z');
      await service.raise(offline());
      advanceMinutes(6);
      await service.raise(offline());
      expect((await rowsOf(ada)).map((r) => r.occurrences)).toEqual([1, 1]);
    } finally {
      await t.app.notificationSettings.update(workspaceId, { groupingWindowMinutes: 60 });
    }
  });

  it('does not duplicate when one condition is raised many times at once', async () => {
    await Promise.all(Array.from({ length: 8 }, () => t.app.notifications.raise(offline())));
    expect(await rowsOf(ada)).toEqual([{ title: 'Server Offline', occurrences: 8, is_read: false }]);
  });

  it('raises a "once" condition only once per recipient, read or not', async () => {
    const once = {
      ...offline(),
      type: 'billing_alert' as const,
      groupKey: 'agent-calls:2026-11:80',
      repeat: 'once' as const,
    };
    await t.app.notifications.raise(once);
    await t.app.db.query('update notifications set is_read = true');
    expect(await t.app.notifications.raise(once)).toEqual([]);
    expect(await rowsOf(ada)).toHaveLength(1);
  });

  it('skips types the workspace muted', async () => {
    await t.app.notificationSettings.update(workspaceId, { mutedTypes: ['tool_server_status'] });
    try {
      expect(await t.app.notifications.raise(offline())).toEqual([]);
      expect(await rowsOf(ada)).toHaveLength(0);
      expect(published).toHaveLength(0);
    } finally {
      await t.app.notificationSettings.update(workspaceId, { mutedTypes: [] });
    }
  });

  it('raises for one user: account-level ones reach every workspace stream of that user, addressed to them', async () => {
    const created = await t.app.notifications.raiseForUser(bob.id, {
      type: 'workspace_invite',
      severity: 'info',
      title: 'Workspace Invitation',
      message: 'Ada invited you',
      actionUrl: '/members',
    });
    expect(created).toMatchObject({ workspaceId: null, type: 'workspace_invite' });
    expect(await rowsOf(ada)).toHaveLength(0);
    expect(published.map((p) => p.workspaceId).sort()).toEqual([workspaceId, otherWorkspaceId].sort());
    expect(
      published.every((p) => p.message.userId === bob.id && (p.message.data as NotificationDto).id === created!.id),
    ).toBe(true);
  });
});
