// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount } from '../helpers/accounts';
import { verifyAccessToken } from '../../../src/server/auth/accessToken';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../src/contract/constants';

const url = '/api/v1/auth/register';
const valid = {
  email: 'grace@example.com',
  password: 'a long enough password',
  passwordConfirmation: 'a long enough password',
  firstName: 'Grace',
  lastName: 'Hopper',
};

describe(`POST /api/v1/auth/register (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const count = async (table: string) =>
    (await t.database.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n;

  it('creates the user, a personal workspace they own and a starter subscription, and signs in', async () => {
    const res = await t.app.inject({ method: 'POST', url, payload: { ...valid, email: '  Grace@Example.COM ' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
      fullName: 'Grace Hopper',
      avatarUrl: null,
      workspaceCount: 1,
    });
    expect(body.user.updatedAt).toBe(body.user.createdAt);
    const claims = verifyAccessToken(body.accessToken, t.config.secret);
    expect(claims?.sub).toBe(body.user.id);
    expect(claims!.exp - claims!.iat).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect(typeof body.refreshToken).toBe('string');

    const workspaces = await t.app.inject({
      method: 'GET',
      url: '/api/v1/workspaces',
      headers: bearer(body.accessToken),
    });
    expect(workspaces.json().workspaces).toEqual([
      expect.objectContaining({ name: "Grace's Workspace", description: '', workspaceType: 'personal', role: 'owner' }),
    ]);
    const subscription = await t.app.inject({
      method: 'GET',
      url: '/api/v1/billing/subscription',
      headers: bearer(body.accessToken),
    });
    expect(subscription.json()).toMatchObject({ plan: 'starter', status: 'active' });

    const stored = await t.database.db.query<{ password_hash: string }>(
      'select password_hash from users where email = $1',
      ['grace@example.com'],
    );
    expect(stored[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a second account with the same email, whatever its case, with a field error', async () => {
    const before = await count('users');
    const res = await t.app.inject({ method: 'POST', url, payload: { ...valid, email: 'GRACE@example.com' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'An account with this email already exists',
      code: 'conflict',
      fields: { email: 'An account with this email already exists' },
    });
    expect(await count('users')).toBe(before);
    expect(await count('workspaces')).toBe(before);
  });

  it.each([
    ['a malformed email', { email: 'not-an-email' }, 'email'],
    ['a missing email', { email: undefined }, 'email'],
    ['a short password', { password: 'short', passwordConfirmation: 'short' }, 'password'],
    ['a password over the cap', { password: 'x'.repeat(129), passwordConfirmation: 'x'.repeat(129) }, 'password'],
    ['a confirmation that does not match', { passwordConfirmation: 'something else entirely' }, 'passwordConfirmation'],
    ['a blank first name', { firstName: '   ' }, 'firstName'],
    ['a missing last name', { lastName: undefined }, 'lastName'],
  ])('answers 400 naming the field for %s, and creates nothing', async (_label, change, field) => {
    const before = await count('users');
    const res = await t.app.inject({ method: 'POST', url, payload: { ...valid, email: 'new@example.com', ...change } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(Object.keys(body.fields)).toContain(field);
    expect(await count('users')).toBe(before);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('answers 413 for a body over the size limit, and creates nothing', async () => {
    const before = await count('users');
    const res = await t.app.inject({
      method: 'POST',
      url,
      payload: { ...valid, email: 'big@example.com', firstName: 'x'.repeat(t.config.bodyLimitBytes) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
    expect(await count('users')).toBe(before);
  });

  it('gives each account its own personal workspace', async () => {
    const a = await registerAccount(t.app);
    const b = await registerAccount(t.app);
    expect(a.workspaceId).not.toBe(b.workspaceId);
  });
});
