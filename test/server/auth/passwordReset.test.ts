// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { Writable } from 'node:stream';
import { buildApp, type App } from '../../../src/server/app';
import { generateSecret, loadConfig } from '../../../src/server/config';
import { openTestDatabase, engineName, type TestDatabase } from '../helpers/testDatabase';
import { registerAccount, type TestAccount } from '../helpers/accounts';
import { PASSWORD_RESET } from '../../../src/server/auth/passwordResets';
import { backgroundWorkIdle } from '../../../src/server/http/backgroundQueue';

// Runs with the real server logger writing into memory, to prove where the reset link goes
// (the log, when no SMTP is configured) and that no other line carries a token.
describe(`password reset through the outbox and the server log (${engineName})`, () => {
  let database: TestDatabase;
  let app: App;
  let account: TestAccount;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    // TOOLSCOPE_DEV_MAIL_LOG=true: without SMTP the mail (and its link) goes to the log, as in local use.
    const config = loadConfig(
      {},
      {
        secret: generateSecret(),
        clientDir: undefined,
        journalDir: undefined,
        publicUrl: 'https://toolscope.example.com',
        smtpUrl: undefined,
        devMailLog: true,
        authRateLimitPerMinute: 10_000,
      },
    );
    app = await buildApp({ config, db: database.db, logger: { level: 'info', stream } });
    await app.ready();
    account = await registerAccount(app, { email: 'reset-me@example.com', password: 'the old password' });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  const forgot = (email: string) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email } });
  const reset = (token: string, password: string, passwordConfirmation = password) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, password, passwordConfirmation },
    });
  const login = (password: string) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: account.email, password } });
  /** Waits for the dispatcher the route kicked (delivery never blocks the request). */
  const waitForLogLine = async (pattern: RegExp, fromLine = 0) => {
    for (let i = 0; i < 200; i += 1) {
      const line = logLines.slice(fromLine).find((l) => pattern.test(l));
      if (line) return line;
      await new Promise((resolve) => setImmediate(resolve));
      await database.db.query('select 1');
    }
    throw new Error(`no log line matching ${pattern}`);
  };
  const tokenFrom = (line: string) => decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(line)![1]);

  it('answers the same whether or not the account exists', async () => {
    const known = await forgot(account.email);
    const unknown = await forgot('nobody@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({
      message: 'If an account exists for that email, a password reset link has been sent to it.',
    });
    expect(unknown.json()).toEqual(known.json());
    await backgroundWorkIdle(app);
    const outbox = await database.db.query<{ recipient: string }>(
      "select recipient from outbox where subject = 'Reset your Toolscope password'",
    );
    expect(outbox.map((r) => r.recipient)).toEqual([account.email]);
  });

  it('writes the reset link, built from the public URL, to the log; no other line holds the token', async () => {
    const line = await waitForLogLine(/reset-password\?token=/);
    expect(line).toContain('https://toolscope.example.com/reset-password?token=');
    const token = tokenFrom(line);
    expect(logLines.filter((l) => l.includes(token))).toHaveLength(1);
    // Delivered: the outbox row no longer holds the link. The row is marked once the line is
    // written (on PostgreSQL that statement may still be on its way when the line is seen).
    let rows: { sent_at: Date | null; body: string }[] = [];
    for (let i = 0; i < 100; i += 1) {
      rows = await database.db.query<{ sent_at: Date | null; body: string }>(
        "select sent_at, body from outbox where subject = 'Reset your Toolscope password'",
      );
      if (rows[0]?.sent_at) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(rows[0].sent_at).not.toBeNull();
    expect(rows[0].body).toBe('');
  });

  it('resets the password once with the token, ends every sign-in, and the token cannot be used again', async () => {
    const token = tokenFrom(logLines.find((l) => l.includes('reset-password?token='))!);
    const res = await reset(token, 'the new password');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your password has been changed. Sign in with the new password.' });
    expect((await login('the old password')).statusCode).toBe(401);
    expect((await login('the new password')).statusCode).toBe(200);
    const oldSession = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refreshToken: account.refreshToken },
    });
    expect(oldSession.statusCode).toBe(401);

    const again = await reset(token, 'a third password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      message: 'This password reset link is invalid or has expired',
      code: 'bad_request',
    });
    expect((await login('the new password')).statusCode).toBe(200);
  });

  it('refuses an expired token and changes nothing', async () => {
    await database.db.query('delete from password_resets');
    const logged = logLines.length;
    await forgot(account.email);
    const token = tokenFrom(await waitForLogLine(/reset-password\?token=/, logged));
    await database.db.query(`update password_resets set expires_at = now() - interval '1 second'`);
    expect((await reset(token, 'never applied password')).statusCode).toBe(400);
    expect((await login('the new password')).statusCode).toBe(200);
  });

  it.each([
    ['an unknown token', { token: 'nope', password: 'valid password', passwordConfirmation: 'valid password' }, 400],
    [
      'a confirmation that does not match',
      { token: 'nope', password: 'valid password', passwordConfirmation: 'other password' },
      400,
    ],
    ['a short password', { token: 'nope', password: 'short', passwordConfirmation: 'short' }, 400],
    ['no token', { password: 'valid password', passwordConfirmation: 'valid password' }, 400],
  ])('reset-password answers 400 for %s', async (_label, payload, status) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload });
    expect(res.statusCode).toBe(status);
  });

  it('forgot-password answers 400 for a malformed email', async () => {
    const res = await forgot('not an email');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('email');
  });

  it(`sends at most ${PASSWORD_RESET.maxPerHour} reset mails an hour per account, answering the same`, async () => {
    await database.db.query('delete from password_resets');
    await database.db.query('delete from outbox');
    for (let i = 0; i < PASSWORD_RESET.maxPerHour + 2; i += 1)
      expect((await forgot(account.email)).statusCode).toBe(200);
    await backgroundWorkIdle(app);
    const rows = await database.db.query<{ n: number }>(
      "select count(*)::int as n from outbox where subject = 'Reset your Toolscope password'",
    );
    expect(rows[0].n).toBe(PASSWORD_RESET.maxPerHour);
  });

  it('never writes passwords or tokens of sign-in traffic to the log', async () => {
    const signIn = (await login('the new password')).json();
    const joined = logLines.join('\n');
    expect(joined).not.toContain('the new password');
    expect(joined).not.toContain(signIn.refreshToken);
    expect(joined).not.toContain(signIn.accessToken);
  });
});
