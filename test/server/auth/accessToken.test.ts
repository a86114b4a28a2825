// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { createHmac } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { registerAccount, type TestAccount } from '../helpers/accounts';
import { signAccessToken } from '../../../src/server/auth/accessToken';
import { generateSecret } from '../../../src/server/config';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hs = (algorithm: 'sha256' | 'sha512', input: string, secret: string) =>
  createHmac(algorithm, secret).update(input).digest('base64url');

describe(`access token checks on a protected route (${engineName})`, () => {
  let t: TestApp;
  let account: TestAccount;
  const now = () => Math.floor(Date.now() / 1000);
  beforeAll(async () => {
    t = await buildTestApp();
    account = await registerAccount(t.app);
  });
  afterAll(() => t.close());

  const me = (authorization?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: authorization === undefined ? {} : { authorization },
    });
  /** The sign-in of `account`, as its login token names it. */
  const sid = (): string =>
    (JSON.parse(Buffer.from(account.accessToken.split('.')[1], 'base64url').toString('utf8')) as { sid: string }).sid;
  const claims = (overrides: Record<string, unknown> = {}) => ({
    sub: account.user.id,
    sid: sid(),
    typ: 'access',
    iat: now(),
    exp: now() + 900,
    jti: 'x',
    ...overrides,
  });
  const forge = (
    header: Record<string, unknown>,
    payload: Record<string, unknown>,
    secret = t.config.secret,
    algorithm: 'sha256' | 'sha512' = 'sha256',
  ) => {
    const body = `${b64(header)}.${b64(payload)}`;
    return `${body}.${hs(algorithm, body, secret)}`;
  };

  it('accepts a correctly signed token of a sign-in that holds', async () => {
    expect((await me(`Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, claims())}`)).statusCode).toBe(200);
  });

  it('accepts a valid token', async () => {
    const res = await me(`Bearer ${account.accessToken}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(account.email);
  });

  it('answers 401 "Authentication required" without a token', async () => {
    const res = await me();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Authentication required', code: 'unauthorized' });
  });

  const rejected: [string, () => string][] = [
    ['garbage', () => 'Bearer not.a.jwt'],
    ['a non-Bearer scheme', () => `Basic ${account.accessToken}`],
    ['alg none without a signature', () => `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
    [
      'alg none with the real signature',
      () => `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.${account.accessToken.split('.')[2]}`,
    ],
    [
      'another algorithm (HS512) with the right key',
      () => `Bearer ${forge({ alg: 'HS512', typ: 'JWT' }, claims(), t.config.secret, 'sha512')}`,
    ],
    ['a token signed with another key', () => `Bearer ${signAccessToken(account.user.id, generateSecret(), sid())}`],
    ['an expired token', () => `Bearer ${signAccessToken(account.user.id, t.config.secret, sid(), now() - 3600, 900)}`],
    [
      'a correctly signed token without a sign-in (sid)',
      () => `Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, claims({ sid: undefined }))}`,
    ],
    [
      'a correctly signed token living longer than an access token may',
      () => `Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, claims({ exp: now() + 365 * 24 * 3600 }))}`,
    ],
    [
      'a correctly signed token whose iat is backdated to stretch its life',
      () => `Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, claims({ iat: now() - 3600, exp: now() + 900 }))}`,
    ],
    [
      'a correctly signed token of a sign-in that does not exist',
      () => `Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, claims({ sid: '00000000-0000-4000-8000-000000000000' }))}`,
    ],
    [
      'the valid token with a character the decoder skips',
      () => {
        const [h, p, s] = account.accessToken.split('.');
        return `Bearer ${h}.${p}.${s.slice(0, 10)}!${s.slice(10)}`;
      },
    ],
    [
      'the valid token with standard base64 padding',
      () => {
        const [h, p, s] = account.accessToken.split('.');
        return `Bearer ${h}.${p}.${s}=`;
      },
    ],
    [
      'the valid token with changed trailing bits in its signature',
      () => {
        const [h, p, s] = account.accessToken.split('.');
        // 32 bytes → 43 characters whose last one carries 2 unused bits: 'A'↔'B' decode alike.
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        const twin = alphabet[alphabet.indexOf(s[s.length - 1]) ^ 1];
        return `Bearer ${h}.${p}.${s.slice(0, -1)}${twin}`;
      },
    ],
    ['a refresh token', () => `Bearer ${account.refreshToken}`],
    [
      'a token whose type is not access',
      () => `Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, claims({ typ: 'refresh' }))}`,
    ],
    [
      'a token with a tampered subject',
      () => {
        const [h, , s] = account.accessToken.split('.');
        return `Bearer ${h}.${b64(claims({ sub: '00000000-0000-4000-8000-000000000000' }))}.${s}`;
      },
    ],
  ];

  it.each(rejected)('answers 401 for %s', async (_label, header) => {
    const res = await me(header());
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });

  it('answers 401 for a valid token of an account that no longer exists', async () => {
    const ghost = await registerAccount(t.app);
    await t.database.db.query('delete from users where id = $1', [ghost.user.id]);
    expect((await me(`Bearer ${ghost.accessToken}`)).statusCode).toBe(401);
  });
});
