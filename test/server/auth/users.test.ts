// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';

describe(`users: profile and preferences (${engineName})`, () => {
  let t: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp();
    account = await registerAccount(t.app, { firstName: 'Alan', lastName: 'Turing' });
  });
  afterAll(() => t.close());

  const put = (payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/preferences',
      headers: bearer(account.accessToken),
      payload: payload as object,
    });
  const get = () =>
    t.app.inject({ method: 'GET', url: '/api/v1/users/preferences', headers: bearer(account.accessToken) });

  it('GET /users/me returns the SPEC §3 user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(account.accessToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: account.user.id,
      email: account.email,
      emailVerified: false,
      firstName: 'Alan',
      lastName: 'Turing',
      fullName: 'Alan Turing',
      avatarUrl: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      workspaceCount: 1,
    });
  });

  it('starts with the dark theme and nothing else', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ theme: 'dark' });
  });

  it('PUT merges the keys sent, removes keys sent as null, keeps unknown keys', async () => {
    expect((await put({ timezone: 'Europe/Paris', emailNotifications: true, sidebarCollapsed: true })).json()).toEqual({
      theme: 'dark',
      timezone: 'Europe/Paris',
      emailNotifications: true,
      sidebarCollapsed: true,
    });
    expect((await put({ timezone: null, defaultWorkspaceId: account.workspaceId })).json()).toEqual({
      theme: 'dark',
      emailNotifications: true,
      sidebarCollapsed: true,
      defaultWorkspaceId: account.workspaceId,
    });
    expect((await get()).json()).toMatchObject({ emailNotifications: true, defaultWorkspaceId: account.workspaceId });
  });

  it('accepts a theme but stays dark (SPEC §1: theme switching has no effect)', async () => {
    const res = await put({ theme: 'light' });
    expect(res.statusCode).toBe(200);
    expect(res.json().theme).toBe('dark');
    expect((await get()).json().theme).toBe('dark');
  });

  it.each([
    ['a wrongly typed known key', { emailNotifications: 'yes' }],
    ['an array', [1, 2]],
    ['preferences over 16 KB', { notes: 'x'.repeat(17_000) }],
  ])('answers 400 for %s and changes nothing', async (_label, payload) => {
    const before = (await get()).json();
    const res = await put(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect((await get()).json()).toEqual(before);
  });

  it('caps what is stored, not only one request: small PUTs of new keys cannot grow it past 16 KB', async () => {
    expect((await put({ notesA: 'a'.repeat(10_000) })).statusCode).toBe(200);
    const before = (await get()).json();
    const res = await put({ notesB: 'b'.repeat(10_000) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Preferences must be at most 16384 bytes', code: 'bad_request' });
    expect((await get()).json()).toEqual(before);
    // Removing a key makes room again.
    expect((await put({ notesA: null, notesB: 'b'.repeat(10_000) })).statusCode).toBe(200);
    expect(await put({ notesB: null })).toMatchObject({ statusCode: 200 });
  });

  it('requires sign-in for every users route', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/users/me'],
      ['GET', '/api/v1/users/preferences'],
      ['PUT', '/api/v1/users/preferences'],
    ] as const) {
      expect((await t.app.inject({ method, url, payload: method === 'PUT' ? {} : undefined })).statusCode).toBe(401);
    }
  });
});
