// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount } from '../helpers/accounts';
import { hashOpaqueToken } from '../../../src/server/auth/opaqueToken';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../../src/contract/constants';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../../src/server/auth/refreshTokens';

describe(`refresh tokens: rotation, reuse detection, sign-out (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken } });
  const oauth = (form: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
  const me = (accessToken: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(accessToken) });

  it('stores only a hash of the token, valid for 30 days', async () => {
    const account = await registerAccount(t.app);
    const rows = await t.database.db.query<{ token_hash: string; seconds: number }>(
      'select token_hash, extract(epoch from (expires_at - created_at))::int as seconds from refresh_tokens where user_id = $1',
      [account.user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(hashOpaqueToken(account.refreshToken));
    expect(rows[0].token_hash).not.toContain(account.refreshToken);
    expect(rows[0].seconds).toBe(REFRESH_TOKEN_TTL_SECONDS);
  });

  it('rotates on every use: a new refresh token and a working access token each time', async () => {
    const account = await registerAccount(t.app);
    const first = await refresh(account.refreshToken);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.refreshToken).not.toBe(account.refreshToken);
    expect(body.user.id).toBe(account.user.id);
    expect((await me(body.accessToken)).statusCode).toBe(200);
    const second = await refresh(body.refreshToken);
    expect(second.statusCode).toBe(200);
    expect(second.json().refreshToken).not.toBe(body.refreshToken);
  });

  it('treats reuse of a rotated token as theft: refuses it and revokes the whole family', async () => {
    const account = await registerAccount(t.app);
    const otherSignIn = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: account.email, password: account.password },
      })
    ).json();
    const rotated = (await refresh(account.refreshToken)).json();
    await pastGraceWindow(account.refreshToken);

    const replay = await refresh(account.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: 'Invalid or expired refresh token', code: 'unauthorized' });
    // The legitimate holder's newest token of that family is dead too...
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
    // ...but another sign-in of the same user (another family) is untouched.
    expect((await refresh(otherSignIn.refreshToken)).statusCode).toBe(200);
  });

  /** Moves a rotation back in time past the grace window (a state, not a wait). */
  const pastGraceWindow = (refreshToken: string) =>
    t.database.db.query(
      `update refresh_tokens set revoked_at = revoked_at - make_interval(secs => $2) where token_hash = $1`,
      [hashOpaqueToken(refreshToken), REFRESH_REUSE_GRACE_SECONDS + 1],
    );

  it('gives simultaneous refreshes of one token (two tabs) the same new pair, which works', async () => {
    const account = await registerAccount(t.app);
    const answers = await Promise.all(Array.from({ length: 6 }, () => refresh(account.refreshToken)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const pairs = new Set(answers.map((r) => `${r.json().accessToken} ${r.json().refreshToken}`));
    expect(pairs.size).toBe(1);
    const { accessToken, refreshToken } = answers[0].json();
    expect(refreshToken).not.toBe(account.refreshToken);
    expect((await me(accessToken)).statusCode).toBe(200);
    expect((await refresh(refreshToken)).statusCode).toBe(200);
  });

  it('still treats the replaced token as stolen once its successor has been used', async () => {
    const account = await registerAccount(t.app);
    const first = (await refresh(account.refreshToken)).json();
    const second = (await refresh(first.refreshToken)).json();
    // Within the window, but the pair it would return was already replaced: reuse.
    expect((await refresh(account.refreshToken)).statusCode).toBe(401);
    expect((await refresh(second.refreshToken)).statusCode).toBe(401);
  });

  it('refuses an expired refresh token', async () => {
    const account = await registerAccount(t.app);
    await t.database.db.query(
      `update refresh_tokens set expires_at = now() - interval '1 second' where token_hash = $1`,
      [hashOpaqueToken(account.refreshToken)],
    );
    expect((await refresh(account.refreshToken)).statusCode).toBe(401);
  });

  it.each([
    ['an unknown token', { refreshToken: 'definitely-not-a-token' }, 401],
    ['an access token', null, 401],
    ['an empty token', { refreshToken: '' }, 400],
    ['no token', {}, 400],
    ['a token over the size cap', { refreshToken: 'x'.repeat(513) }, 400],
  ])('refuses %s', async (_label, payload, status) => {
    const account = await registerAccount(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: payload ?? { refreshToken: account.accessToken },
    });
    expect(res.statusCode).toBe(status);
  });

  describe('POST /api/auth/oauth/token (form-encoded refresh grant)', () => {
    it('answers in OAuth names, rotates, and forbids caching', async () => {
      const account = await registerAccount(t.app);
      const res = await oauth(`grant_type=refresh_token&refresh_token=${encodeURIComponent(account.refreshToken)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json();
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900, user: { id: account.user.id } });
      expect(body.refresh_token).not.toBe(account.refreshToken);
      expect((await me(body.access_token)).statusCode).toBe(200);
      // The JSON and the form endpoint share one rotation: within the grace window the old token
      // gives the same pair; past it, it is a replay.
      expect((await refresh(account.refreshToken)).json().refreshToken).toBe(body.refresh_token);
      await pastGraceWindow(account.refreshToken);
      expect((await refresh(account.refreshToken)).statusCode).toBe(401);
      expect((await refresh(body.refresh_token)).statusCode).toBe(401);
    });

    it.each([
      ['another grant type', 'grant_type=password&refresh_token=abc', 400],
      ['no refresh token', 'grant_type=refresh_token', 400],
      ['an unknown refresh token', 'grant_type=refresh_token&refresh_token=nope', 401],
    ])('refuses %s', async (_label, form, status) => {
      expect((await oauth(form)).statusCode).toBe(status);
    });
  });

  describe('POST /api/v1/auth/logout', () => {
    it('revokes the refresh token given (and its family), leaving other sign-ins alone', async () => {
      const account = await registerAccount(t.app);
      const other = (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: account.email, password: account.password },
        })
      ).json();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: bearer(account.accessToken),
        payload: { refreshToken: account.refreshToken },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Signed out' });
      expect((await refresh(account.refreshToken)).statusCode).toBe(401);
      expect((await refresh(other.refreshToken)).statusCode).toBe(200);
    });

    it('is fine without a body, without a token and with an unknown token', async () => {
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: {} })).statusCode).toBe(200);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: { refreshToken: 'unknown' } }))
          .statusCode,
      ).toBe(200);
    });

    it('answers 400 for a malformed body', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: { refreshToken: 12 } });
      expect(res.statusCode).toBe(400);
    });
  });
});
