jest.setTimeout(300_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';

// Account settings over the real API: profile, preferences, password change and sign-ins.
describe(`account settings (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const login = (account: TestAccount, userAgent: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'user-agent': userAgent },
      payload: { email: account.email, password: account.password },
    });
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken } });

  it('changes the name and a generated avatar, and refuses a hostile avatar URL', async () => {
    const ada = await registerAccount(t.app);
    const avatar = 'data:image/svg+xml;charset=utf-8,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E';
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/me',
      headers: bearer(ada.accessToken),
      payload: { firstName: ' Grace ', lastName: 'Hopper', avatarUrl: avatar },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      fullName: 'Grace Hopper',
      avatarUrl: avatar,
    });
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(ada.accessToken) });
    expect(me.json()).toMatchObject({ fullName: 'Grace Hopper', avatarUrl: avatar });

    for (const avatarUrl of ['javascript:alert(1)', 'http://example.com/a.png', 'data:text/html,<script>']) {
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/users/me',
        headers: bearer(ada.accessToken),
        payload: { avatarUrl },
      });
      expect(bad.statusCode).toBe(400);
    }
    const blank = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/me',
      headers: bearer(ada.accessToken),
      payload: { firstName: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(ada.accessToken) })).json(),
    ).toMatchObject({ fullName: 'Grace Hopper', avatarUrl: avatar });
  });

  it('stores preferences: an IANA time zone, formats, email types, stream default, a default workspace of ones own', async () => {
    const ada = await registerAccount(t.app);
    const other = await registerAccount(t.app);
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/v1/users/preferences', headers: bearer(ada.accessToken), payload });
    const ok = await put({
      timezone: 'Asia/Tokyo',
      dateFormat: 'iso',
      timeFormat: '24h',
      emailNotificationTypes: ['billing_alert'],
      activityStreamDefault: 'paused',
      defaultWorkspaceId: ada.workspaceId,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      timezone: 'Asia/Tokyo',
      dateFormat: 'iso',
      timeFormat: '24h',
      emailNotificationTypes: ['billing_alert'],
      activityStreamDefault: 'paused',
      defaultWorkspaceId: ada.workspaceId,
    });

    expect((await put({ timezone: 'Mars/Olympus_Mons' })).statusCode).toBe(400);
    expect((await put({ emailNotificationTypes: ['spam'] })).statusCode).toBe(400);
    expect((await put({ defaultWorkspaceId: other.workspaceId })).statusCode).toBe(400);
    expect((await put({ defaultWorkspaceId: 'not-a-uuid' })).statusCode).toBe(400);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/preferences',
      headers: bearer(ada.accessToken),
    });
    expect(after.json()).toMatchObject({ timezone: 'Asia/Tokyo', defaultWorkspaceId: ada.workspaceId });
  });

  it('lists active sign-ins with device and address, the current one marked', async () => {
    const ada = await registerAccount(t.app);
    const laptop = (
      await login(
        ada,
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
      )
    ).json();
    await login(
      ada,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
    );
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me/sign-ins',
      headers: bearer(laptop.accessToken),
    });
    expect(res.statusCode).toBe(200);
    const signIns = res.json().signIns as { device: string; current: boolean; ip: string | null }[];
    expect(signIns).toHaveLength(3);
    expect(signIns.filter((s) => s.current)).toEqual([expect.objectContaining({ device: 'Chrome on macOS' })]);
    expect(signIns.map((s) => s.device)).toEqual(expect.arrayContaining(['Safari on iOS']));
    expect(signIns.every((s) => s.ip === '127.0.0.1')).toBe(true);
  });

  it('changes the password: the current sign-in stays, every other one is signed out (its refresh fails)', async () => {
    const ada = await registerAccount(t.app);
    const here = (await login(ada, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0')).json();
    const elsewhere = ada; // the sign-in made at sign-up

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/password',
      headers: bearer(here.accessToken),
      payload: {
        currentPassword: 'nope-nope',
        newPassword: 'a brand new secret',
        newPasswordConfirmation: 'a brand new secret',
      },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ currentPassword: 'The current password is not correct' });
    expect((await refresh(elsewhere.refreshToken)).statusCode).toBe(200);
    const rotated = (await refresh(here.refreshToken)).json();

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/password',
      headers: bearer(rotated.accessToken),
      payload: {
        currentPassword: ada.password,
        newPassword: 'a brand new secret',
        newPasswordConfirmation: 'a brand new secret',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().signedOutOthers).toBe(1);
    const stillHere = await refresh(rotated.refreshToken);
    expect(stillHere.statusCode).toBe(200);
    const other = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/users/me/sign-ins',
        headers: bearer(stillHere.json().accessToken),
      })
    ).json().signIns;
    expect(other).toHaveLength(1);
    expect((await login(ada, 'x')).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: ada.email, password: 'a brand new secret' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('revokes one sign-in (its refresh fails) and signs out everywhere else', async () => {
    const ada = await registerAccount(t.app);
    const a = (await login(ada, 'A')).json();
    const b = (await login(ada, 'B')).json();
    const list = async (token: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/users/me/sign-ins', headers: bearer(token) })).json()
        .signIns as { id: string; current: boolean; userAgent: string }[];
    const target = (await list(a.accessToken)).find((s) => s.userAgent === 'B')!;
    const stranger = await registerAccount(t.app);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/v1/users/me/sign-ins/${target.id}`,
          headers: bearer(stranger.accessToken),
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/v1/users/me/sign-ins/not-a-uuid',
          headers: bearer(a.accessToken),
        })
      ).statusCode,
    ).toBe(400);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/me/sign-ins/${target.id}`,
      headers: bearer(a.accessToken),
    });
    expect(revoked.statusCode).toBe(204);
    expect((await refresh(b.refreshToken)).statusCode).toBe(401);
    expect((await list(a.accessToken)).map((s) => s.userAgent)).not.toContain('B');

    const others = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/sign-ins/revoke-others',
      headers: bearer(a.accessToken),
    });
    expect(others.json()).toEqual({ revoked: 1 });
    expect((await refresh(ada.refreshToken)).statusCode).toBe(401);
    expect((await refresh(a.refreshToken)).statusCode).toBe(200);
  });
});
