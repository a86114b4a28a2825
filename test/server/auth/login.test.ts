// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { LOGIN_THROTTLE } from '../../../src/server/auth/loginThrottle';

const url = '/api/v1/auth/login';

describe(`POST /api/v1/auth/login and throttling (${engineName})`, () => {
  let t: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp();
    account = await registerAccount(t.app, { email: 'Linus@Example.com', password: 'the right password' });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url, payload: { email, password } });
  /**
   * These tests are about one client's lock-out: each starts without earlier failures, the
   * account-wide backoff's included (it counts every test's guesses at this account; its own tests
   * are in trustedProxyThrottle.test.ts).
   */
  const forgetSignInFailures = async () => {
    await t.database.db.query('delete from login_throttle');
    await t.database.db.query('delete from login_account_backoff');
  };
  /** Moves a lock-out into the past: a simulated clock for the throttle's 15 minutes. */
  const expireLock = (email: string) =>
    t.database.db.query(`update login_throttle set locked_until = now() - interval '1 second' where email = $1`, [
      email,
    ]);

  it('signs in with email (any case) and password, returning tokens and the user', async () => {
    const res = await login(' LINUS@example.com ', 'the right password');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ id: account.user.id, email: 'linus@example.com', workspaceCount: 1 });
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(body.accessToken) });
    expect(me.json().id).toBe(account.user.id);
    expect(body.refreshToken).not.toBe(account.refreshToken);
  });

  it('gives the same answer for a wrong password and for an unknown email', async () => {
    const wrong = await login('linus@example.com', 'not the password');
    const unknown = await login('nobody@example.com', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password', code: 'unauthorized' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it.each([
    ['no password', { email: 'linus@example.com' }],
    ['an empty email', { email: '', password: 'x' }],
    ['a password over the cap', { email: 'linus@example.com', password: 'x'.repeat(129) }],
    ['a number for the email', { email: 42, password: 'x' }],
  ])('answers 400 for %s', async (_label, payload) => {
    const res = await t.app.inject({ method: 'POST', url, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it(`locks an account after ${LOGIN_THROTTLE.maxFailures} failures, refusing even the right password, until the lock ends`, async () => {
    const email = 'linus@example.com';
    await forgetSignInFailures();
    for (let i = 1; i < LOGIN_THROTTLE.maxFailures; i += 1)
      expect((await login(email, `guess ${i}`)).statusCode).toBe(401);
    const locking = await login(email, 'last guess');
    expect(locking.statusCode).toBe(429);
    expect(locking.json()).toEqual({
      message: 'Too many sign-in attempts. Try again in 15 minutes.',
      code: 'too_many_requests',
    });

    const rightButLocked = await login(email, 'the right password');
    expect(rightButLocked.statusCode).toBe(429);

    await expireLock(email);
    expect((await login(email, 'the right password')).statusCode).toBe(200);
  });

  it('locks an unknown email the same way, so a lock-out reveals nothing', async () => {
    const email = 'ghost@example.com';
    const answers: number[] = [];
    for (let i = 0; i < LOGIN_THROTTLE.maxFailures + 1; i += 1)
      answers.push((await login(email, `guess ${i}`)).statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('clears the failure count after a successful sign-in', async () => {
    const email = 'linus@example.com';
    await forgetSignInFailures();
    for (let i = 1; i < LOGIN_THROTTLE.maxFailures; i += 1) await login(email, `guess ${i}`);
    expect((await login(email, 'the right password')).statusCode).toBe(200);
    for (let i = 1; i < LOGIN_THROTTLE.maxFailures; i += 1)
      expect((await login(email, `guess ${i}`)).statusCode).toBe(401);
  });

  it('starts counting afresh once the failure window has passed', async () => {
    const email = 'linus@example.com';
    await forgetSignInFailures();
    for (let i = 1; i < LOGIN_THROTTLE.maxFailures; i += 1) await login(email, `guess ${i}`);
    await t.database.db.query(
      `update login_throttle set window_start = now() - interval '16 minutes' where email = $1`,
      [email],
    );
    expect((await login(email, 'one more guess')).statusCode).toBe(401);
    const rows = await t.database.db.query<{ failures: number }>(
      'select failures from login_throttle where email = $1',
      [email],
    );
    expect(rows[0].failures).toBe(1);
  });
});
