jest.setTimeout(300_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { registerAccount, type TestAccount } from '../helpers/accounts';
import { LOGIN_THROTTLE } from '../../../src/server/auth/loginThrottle';
import { backgroundWorkIdle } from '../../../src/server/http/backgroundQueue';

// Issue 16 item 6, from outside as the attacker did it: spraying emails from one client, locking
// someone else out, telling existing emails from unknown ones by forgot-password, weak passwords.
describe(`the sign-in surface (${engineName})`, () => {
  const PER_MINUTE = 8;
  let t: TestApp;
  let victim: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp({ authRateLimitPerMinute: PER_MINUTE });
    victim = await registerAccount(t.app, { email: 'victim@example.com', password: 'the victims password' });
  });
  afterAll(() => t.close());

  const from = (ip: string) => ({ remoteAddress: ip });
  const login = (email: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, ...from(ip) });

  it('stops one client spraying many emails with 429 and Retry-After, while another client signs in', async () => {
    const answers = [];
    for (let i = 0; i < PER_MINUTE + 4; i++)
      answers.push(await login(`sprayed${i}@example.com`, 'Password123!', '10.9.9.9'));
    const limited = answers.filter((res) => res.statusCode === 429);
    expect(answers.slice(0, PER_MINUTE).every((res) => res.statusCode === 401)).toBe(true);
    expect(limited).toHaveLength(4);
    for (const res of limited) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toMatchObject({
        code: 'too_many_requests',
        message: expect.stringMatching(/^Too many requests from this address\. Try again in \d+ seconds\.$/),
      });
    }
    expect((await login(victim.email, victim.password, '10.1.1.1')).statusCode).toBe(200);
  });

  it('locks a client out of an email after repeated failures (Retry-After), without locking the owner out from elsewhere', async () => {
    const attacker = '10.7.7.7';
    for (let i = 1; i < LOGIN_THROTTLE.maxFailures; i++)
      expect((await login(victim.email, `guess ${i}`, attacker)).statusCode).toBe(401);
    const locking = await login(victim.email, 'last guess', attacker);
    expect(locking.statusCode).toBe(429);
    expect(Number(locking.headers['retry-after'])).toBe(LOGIN_THROTTLE.lockSeconds);
    const stillLocked = await login(victim.email, victim.password, attacker);
    expect(stillLocked.statusCode).toBe(429);
    expect(Number(stillLocked.headers['retry-after'])).toBeGreaterThan(LOGIN_THROTTLE.lockSeconds - 60);
    // The owner, from their own address, is not locked out.
    expect((await login(victim.email, victim.password, '10.2.2.2')).statusCode).toBe(200);
    // The lock-out is a security event in the victim's workspace's audit log.
    const events = await t.database.db.query<{ action: string; ip: string }>(
      `select action, ip from audit_events where workspace_id = $1`,
      [victim.workspaceId],
    );
    expect(events).toContainEqual({ action: 'auth.locked_out', ip: attacker });
  });

  it('answers forgot-password alike for an existing and an unknown email, and queues the mail after answering', async () => {
    const forgot = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email }, ...from('10.3.3.3') });
    const known = await forgot(victim.email);
    const unknown = await forgot('nobody-at-all@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    const headerNames = (res: typeof known) =>
      Object.keys(res.headers)
        .filter((name) => !['date', 'x-ratelimit-remaining'].includes(name))
        .sort();
    expect(headerNames(known)).toEqual(headerNames(unknown));
    await backgroundWorkIdle(t.app);
    const mails = await t.database.db.query<{ recipient: string }>(
      "select recipient from outbox where subject = 'Reset your Toolscope password'",
    );
    expect(mails.map((m) => m.recipient)).toEqual([victim.email]);
  });

  it('limits register per client too, keeping the 409 for a taken email behind the limit', async () => {
    const register = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: {
          email,
          password: 'a long enough passphrase',
          passwordConfirmation: 'a long enough passphrase',
          firstName: 'A',
          lastName: 'B',
        },
        ...from('10.4.4.4'),
      });
    const taken = await register(victim.email);
    expect(taken.statusCode).toBe(409);
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE + 1; i++) statuses.push((await register(victim.email)).statusCode);
    expect(statuses).toContain(429);
  });

  it.each([
    ['shorter than 10 characters', 'abc12345!', /at least 10 characters/],
    ['in the breached-password list', 'qwertyuiop', /breached passwords/],
    ['in the list in another case', 'IloveYou123', /breached passwords/],
  ])('refuses a password %s (400 on the password field) and creates nothing', async (_label, password, message) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        email: `weak-${Date.now()}@example.com`,
        password,
        passwordConfirmation: password,
        firstName: 'A',
        lastName: 'B',
      },
      ...from('10.5.5.5'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.password).toMatch(message);
    const users = await t.database.db.query('select 1 from users where email like $1', ['weak-%']);
    expect(users).toHaveLength(0);
  });
});
