import { randomUUID } from 'node:crypto';
import { openTestDatabase, engineName, type TestDatabase } from '../helpers/testDatabase';
import { deleteExpiredCredentials } from '../../../src/server/auth/expiredCredentials';
import { issueRefreshToken, rotateRefreshToken } from '../../../src/server/auth/refreshTokens';

jest.setTimeout(60_000);

// Sign-in rows past use are deleted a day after they stopped counting; everything still in use,
// or within that day, stays.
describe(`deleting expired sign-in rows (${engineName})`, () => {
  let database: TestDatabase;
  let userId: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    [{ id: userId }] = await database.db.query<{ id: string }>(
      "insert into users (email, password_hash, first_name, last_name) values ('expiry@example.com', 'x', 'E', 'X') returning id",
    );
  });
  afterAll(() => database.drop());

  const token = async (label: string, expiresIn: string, rotated = false) => {
    const [row] = await database.db.query<{ id: string }>(
      `insert into refresh_tokens (user_id, family_id, token_hash, expires_at, revoked_at, replaced_by)
       values ($1, $2, $3, now() + $4::interval, $5, $6) returning id`,
      [userId, randomUUID(), `hash-${label}`, expiresIn, rotated ? new Date() : null, rotated ? randomUUID() : null],
    );
    return row.id;
  };
  const remaining = async (table: string, column: string) =>
    (await database.db.query<{ v: string }>(`select ${column}::text as v from ${table} order by 1`)).map((r) => r.v);

  it('deletes refresh tokens, resets and throttles a day past use, and keeps the rest', async () => {
    await token('expired-2d', '-2 days');
    await token('rotated-expired-3d', '-3 days', true);
    await token('expired-1h', '-1 hour'); // within the day's grace
    await token('valid', '29 days');
    await token('rotated-valid', '10 days', true); // kept: its reuse still revokes the sign-in
    await database.db.query(
      `insert into password_resets (user_id, token_hash, expires_at, used_at) values
         ($1, 'reset-expired', now() - interval '2 days', null),
         ($1, 'reset-used-expired', now() - interval '26 hours', now() - interval '27 hours'),
         ($1, 'reset-used-fresh', now() + interval '30 minutes', now())`,
      [userId],
    );
    await database.db.query(
      `insert into login_throttle (email, failures, window_start, locked_until) values
         ('old@example.com', 3, now() - interval '2 days', null),
         ('old-lock@example.com', 0, now() - interval '2 days', now() - interval '47 hours'),
         ('locked@example.com', 0, now() - interval '2 days', now() + interval '10 minutes'),
         ('recent@example.com', 2, now() - interval '5 minutes', null)`,
    );

    expect(await deleteExpiredCredentials(database.db)).toEqual({ refreshTokens: 2, passwordResets: 2, loginThrottles: 2 });
    expect(await remaining('refresh_tokens', 'token_hash')).toEqual(['hash-expired-1h', 'hash-rotated-valid', 'hash-valid']);
    expect(await remaining('password_resets', 'token_hash')).toEqual(['reset-used-fresh']);
    expect(await remaining('login_throttle', 'email')).toEqual(['locked@example.com', 'recent@example.com']);
    // Nothing more to delete on a second run.
    expect(await deleteExpiredCredentials(database.db)).toEqual({ refreshTokens: 0, passwordResets: 0, loginThrottles: 0 });
  });

  it('works through more rows than one statement takes', async () => {
    for (let i = 0; i < 7; i++) await token(`bulk-${i}`, '-5 days');
    expect((await deleteExpiredCredentials(database.db, 3)).refreshTokens).toBe(7);
    expect((await remaining('refresh_tokens', 'token_hash')).filter((hash) => hash.startsWith('hash-bulk'))).toEqual([]);
  });

  it('leaves sign-ins working: a live token still rotates after a cleanup', async () => {
    const issued = await issueRefreshToken(database.db, userId);
    await deleteExpiredCredentials(database.db);
    const rotated = await rotateRefreshToken(database.db, issued.token);
    expect(rotated).toMatchObject({ ok: true, userId });
  });
});
