import { randomUUID } from 'node:crypto';
import type { NotificationDto } from '../../../src/contract/notifications';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { createUser, createWorkspace, type TestUser } from './fixtures';

// Opening PGlite on a busy shared machine can take longer than Jest's default 5 s.
jest.setTimeout(60_000);

describe(`notification calls (${engineName})`, () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let shared: string;
  let adaOnly: string;

  beforeAll(async () => {
    t = await buildTestApp();
    ada = await createUser(t.app, 'Ada');
    bob = await createUser(t.app, 'Bob');
    shared = await createWorkspace(t.app, ada, [{ user: bob, role: 'member' }], 'Shared');
    adaOnly = await createWorkspace(t.app, ada, [], 'Private');
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.app.db.query('delete from notifications');
  });

  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });
  const post = (user: TestUser, url: string, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: user.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function raiseIn(workspaceId: string, title: string): Promise<NotificationDto[]> {
    return t.app.notifications.raise({
      workspaceId,
      type: 'system_announcement',
      severity: 'info',
      title,
      message: `${title} happened`,
    });
  }
  const mine = (list: NotificationDto[], user: TestUser) => list.filter((n) => n.id && ownerOf(n) === user.id);
  const owners = new Map<string, string>();
  const ownerOf = (n: NotificationDto) => owners.get(n.id);
  async function raiseAndIndex(workspaceId: string, title: string): Promise<NotificationDto[]> {
    const created = await raiseIn(workspaceId, title);
    const rows = await t.app.db.query<{ id: string; user_id: string }>(
      'select id, user_id from notifications where id = any($1::uuid[])',
      [created.map((n) => n.id)],
    );
    for (const row of rows) owners.set(row.id, row.user_id);
    return created;
  }

  it('requires a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/notifications' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('lists only the caller’s notifications, latest first, with the SPEC §3 fields and a total', async () => {
    await raiseAndIndex(shared, 'First');
    await raiseAndIndex(shared, 'Second');
    await raiseAndIndex(adaOnly, 'Private thing');

    const adaList = await get(ada, '/api/v1/notifications');
    expect(adaList.statusCode).toBe(200);
    const body = adaList.json<{ notifications: NotificationDto[]; total: number }>();
    expect(body.total).toBe(3);
    expect(body.notifications.map((n) => n.title)).toEqual(['Private thing', 'Second', 'First']);
    expect(mine(body.notifications, ada)).toHaveLength(3);
    expect(body.notifications[0]).toEqual({
      id: expect.any(String),
      workspaceId: adaOnly,
      title: 'Private thing',
      message: 'Private thing happened',
      severity: 'info',
      type: 'system_announcement',
      isRead: false,
      isArchived: false,
      actionUrl: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      occurrences: 1,
      metadata: {},
    });

    const bobList = (await get(bob, '/api/v1/notifications')).json<{
      notifications: NotificationDto[];
      total: number;
    }>();
    expect(bobList.total).toBe(2);
    expect(mine(bobList.notifications, bob)).toHaveLength(2);
  });

  it('filters by workspace (plus account-level ones), archive state, read state, and pages with limit and offset', async () => {
    await raiseAndIndex(shared, 'A');
    await raiseAndIndex(shared, 'B');
    await raiseAndIndex(shared, 'C');
    await raiseAndIndex(adaOnly, 'Elsewhere');
    await t.app.notifications.raiseForUser(ada.id, {
      type: 'workspace_invite',
      severity: 'info',
      title: 'Invite',
      message: 'Join us',
    });

    const scoped = (await get(ada, `/api/v1/notifications?workspaceId=${shared}`)).json();
    expect(scoped.total).toBe(4);
    expect(scoped.notifications.map((n: NotificationDto) => n.title)).toEqual(['Invite', 'C', 'B', 'A']);

    const page = (await get(ada, `/api/v1/notifications?workspaceId=${shared}&limit=2&offset=1`)).json();
    expect(page.total).toBe(4);
    expect(page.notifications.map((n: NotificationDto) => n.title)).toEqual(['C', 'B']);

    const target = scoped.notifications.find((n: NotificationDto) => n.title === 'B');
    expect((await post(ada, '/api/v1/notifications/archive', { notificationIds: [target.id] })).json()).toEqual({
      updated: 1,
    });
    const inbox = (await get(ada, `/api/v1/notifications?workspaceId=${shared}&isArchived=false`)).json();
    expect(inbox.notifications.map((n: NotificationDto) => n.title)).toEqual(['Invite', 'C', 'A']);
    const archived = (await get(ada, `/api/v1/notifications?workspaceId=${shared}&isArchived=true`)).json();
    expect(archived.notifications.map((n: NotificationDto) => n.title)).toEqual(['B']);
    expect(archived.notifications[0].isArchived).toBe(true);

    const c = scoped.notifications.find((n: NotificationDto) => n.title === 'C');
    await post(ada, '/api/v1/notifications/mark-read', { notificationIds: [c.id] });
    const unread = (await get(ada, `/api/v1/notifications?workspaceId=${shared}&isRead=false`)).json();
    expect(unread.notifications.map((n: NotificationDto) => n.title)).toEqual(['Invite', 'A']);

    const strict = (await get(ada, `/api/v1/workspaces/${shared}/notifications`)).json();
    expect(strict.notifications.map((n: NotificationDto) => n.title)).toEqual(['C', 'A']);
    expect(strict.total).toBe(2);
  });

  it('rejects bad filters with a 400 naming the field and changes nothing', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'offset=-1', 'isArchived=maybe', 'workspaceId=nope']) {
      const res = await get(ada, `/api/v1/notifications?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: expect.any(Object) });
      expect(Object.keys(res.json().fields)[0]).toBe(query.split('=')[0]);
    }
    expect((await get(ada, '/api/v1/notifications/unread-count?workspaceId=123')).statusCode).toBe(400);
  });

  it('counts unread inbox notifications, optionally per workspace', async () => {
    const [first] = await raiseAndIndex(shared, 'One').then((list) => list.filter((n) => ownerOf(n) === ada.id));
    await raiseAndIndex(shared, 'Two');
    await raiseAndIndex(adaOnly, 'Three');

    expect((await get(ada, '/api/v1/notifications/unread-count')).json()).toEqual({ count: 3 });
    expect((await get(ada, `/api/v1/notifications/unread-count?workspaceId=${shared}`)).json()).toEqual({ count: 2 });
    expect((await get(bob, '/api/v1/notifications/unread-count')).json()).toEqual({ count: 2 });

    await post(ada, `/api/v1/notifications/${first.id}/read`);
    expect((await get(ada, '/api/v1/notifications/unread-count')).json()).toEqual({ count: 2 });
    expect((await get(bob, '/api/v1/notifications/unread-count')).json()).toEqual({ count: 2 });
  });

  it('marks several read; ids of other users change nothing', async () => {
    const created = await raiseAndIndex(shared, 'Shared news');
    const adas = created.find((n) => ownerOf(n) === ada.id)!;
    const bobs = created.find((n) => ownerOf(n) === bob.id)!;

    const res = await post(ada, '/api/v1/notifications/mark-read', {
      notificationIds: [adas.id, bobs.id, randomUUID()],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: 1 });
    expect((await get(ada, `/api/v1/notifications/${adas.id}`)).json().isRead).toBe(true);
    expect((await get(bob, `/api/v1/notifications/${bobs.id}`)).json().isRead).toBe(false);

    const bad = await post(ada, '/api/v1/notifications/mark-read', { notificationIds: [] });
    expect(bad.statusCode).toBe(400);
    expect((await post(ada, '/api/v1/notifications/mark-read', { notificationIds: ['x'] })).statusCode).toBe(400);
    expect((await post(ada, '/api/v1/notifications/mark-read', {})).statusCode).toBe(400);
  });

  it('marks all read with an empty body, no body, or one workspace', async () => {
    await raiseAndIndex(shared, 'S1');
    await raiseAndIndex(adaOnly, 'P1');

    const scoped = await post(ada, '/api/v1/notifications/mark-all-read', { workspaceId: adaOnly });
    expect(scoped.json()).toEqual({ updated: 1 });
    expect((await get(ada, '/api/v1/notifications/unread-count')).json()).toEqual({ count: 1 });

    await raiseAndIndex(adaOnly, 'P2');
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/notifications/mark-all-read',
      headers: { ...ada.auth, 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ updated: 2 });
    expect((await get(ada, '/api/v1/notifications/unread-count')).json()).toEqual({ count: 0 });
    expect((await get(bob, '/api/v1/notifications/unread-count')).json()).toEqual({ count: 1 });

    const none = await post(bob, '/api/v1/notifications/mark-all-read');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ updated: 1 });

    expect((await post(bob, '/api/v1/notifications/mark-all-read', { workspaceId: 'x' })).statusCode).toBe(400);
  });

  it('archives only the caller’s notifications and keeps archived ones out of the inbox and the count', async () => {
    const created = await raiseAndIndex(shared, 'To archive');
    const adas = created.find((n) => ownerOf(n) === ada.id)!;
    const bobs = created.find((n) => ownerOf(n) === bob.id)!;

    expect((await post(ada, '/api/v1/notifications/archive', { notificationIds: [adas.id, bobs.id] })).json()).toEqual({
      updated: 1,
    });
    expect((await get(ada, '/api/v1/notifications')).json().total).toBe(0);
    expect((await get(ada, '/api/v1/notifications/unread-count')).json()).toEqual({ count: 0 });
    expect((await get(bob, '/api/v1/notifications')).json().total).toBe(1);
  });

  it('reads and marks one notification; another user’s id or a malformed id is a 404', async () => {
    const created = await raiseAndIndex(shared, 'Single');
    const adas = created.find((n) => ownerOf(n) === ada.id)!;

    const one = await get(ada, `/api/v1/notifications/${adas.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: adas.id, title: 'Single', isRead: false });

    const read = await t.app.inject({
      method: 'POST',
      url: `/api/v1/notifications/${adas.id}/read`,
      headers: ada.auth,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: adas.id, isRead: true });

    for (const res of [
      await get(bob, `/api/v1/notifications/${adas.id}`),
      await post(bob, `/api/v1/notifications/${adas.id}/read`),
      await get(ada, '/api/v1/notifications/not-a-uuid'),
      await post(ada, `/api/v1/notifications/${randomUUID()}/read`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Notification not found', code: 'not_found' });
    }
  });

  it('lists a workspace’s notifications only for its members', async () => {
    await raiseAndIndex(adaOnly, 'Private');
    expect((await get(ada, `/api/v1/workspaces/${adaOnly}/notifications?limit=5`)).json().total).toBe(1);
    const res = await get(bob, `/api/v1/workspaces/${adaOnly}/notifications`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });
});
