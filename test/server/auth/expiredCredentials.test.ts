import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openTestDatabase, engineName, type TestDatabase } from '../helpers/testDatabase';
import { deleteExpiredCredentials } from '../../../src/server/auth/expiredCredentials';
import { issueRefreshToken, rotateRefreshToken } from '../../../src/server/auth/refreshTokens';

/** Signs derived successor tokens (auth/refreshTokens.ts); any secret does for these rows. */
const SECRET = 'expired-credentials-test-secret';

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
    await database.db.query(
      `insert into login_account_backoff (email, failures, last_failure_at, blocked_until) values
         ('old@example.com', 30, now() - interval '2 days', now() - interval '47 hours'),
         ('recent@example.com', 30, now() - interval '5 minutes', now() + interval '5 minutes')`,
    );

    expect(await deleteExpiredCredentials(database.db)).toEqual({
      refreshTokens: 2,
      passwordResets: 2,
      loginThrottles: 2,
      accountBackoffs: 1,
    });
    expect(await remaining('refresh_tokens', 'token_hash')).toEqual([
      'hash-expired-1h',
      'hash-rotated-valid',
      'hash-valid',
    ]);
    expect(await remaining('password_resets', 'token_hash')).toEqual(['reset-used-fresh']);
    expect(await remaining('login_throttle', 'email')).toEqual(['locked@example.com', 'recent@example.com']);
    expect(await remaining('login_account_backoff', 'email')).toEqual(['recent@example.com']);
    // Nothing more to delete on a second run.
    expect(await deleteExpiredCredentials(database.db)).toEqual({
      refreshTokens: 0,
      passwordResets: 0,
      loginThrottles: 0,
      accountBackoffs: 0,
    });
  });

  it("keeps a live sign-in's replaced tokens, however old: presented again, one still revokes the sign-in", async () => {
    const stolen = await issueRefreshToken(database.db, userId, undefined, -3 * 86_400); // replaced long ago
    const live = await issueRefreshToken(database.db, userId, stolen.familyId);
    await database.db.query('update refresh_tokens set revoked_at = now(), replaced_by = $2 where id = $1', [
      stolen.id,
      live.id,
    ]);
    const ended = await issueRefreshToken(database.db, userId, undefined, -3 * 86_400); // a sign-in that lapsed
    await deleteExpiredCredentials(database.db);
    expect(await rotateRefreshToken(database.db, stolen.token, SECRET)).toEqual({
      ok: false,
      reason: 'reused',
      familyId: stolen.familyId,
      userId,
    });
    expect(await rotateRefreshToken(database.db, live.token, SECRET)).toMatchObject({ ok: false }); // revoked with its sign-in
    expect(await rotateRefreshToken(database.db, ended.token, SECRET)).toEqual({ ok: false, reason: 'unknown' });
    // Revoked, the sign-in has ended: the next cleanup takes its expired token.
    expect((await deleteExpiredCredentials(database.db)).refreshTokens).toBe(1);
  });

  if (engineName === 'postgres') {
    it('leaves a throttle row that locks its account while a cleanup chunk waits for it', async () => {
      const email = 'racing@example.com';
      await database.db.query(
        "insert into login_throttle (email, failures, window_start) values ($1, 4, now() - interval '2 days')",
        [email],
      );
      const signIn = new pg.Client({ connectionString: database.url });
      await signIn.connect();
      try {
        // The fifth failure locks the account, in a transaction still open when the cleanup chooses its rows.
        await signIn.query('begin');
        await signIn.query(
          "update login_throttle set locked_until = now() + interval '15 minutes', failures = 0, window_start = now() where email = $1",
          [email],
        );
        const cleanup = deleteExpiredCredentials(database.db);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await signIn.query('commit');
        await cleanup;
      } finally {
        await signIn.end();
      }
      expect(await remaining('login_throttle', 'email')).toContain(email);
    });
  }

  it('works through more rows than one statement takes', async () => {
    for (let i = 0; i < 7; i++) await token(`bulk-${i}`, '-5 days');
    expect((await deleteExpiredCredentials(database.db, { chunkRows: 3 })).refreshTokens).toBe(7);
    expect((await remaining('refresh_tokens', 'token_hash')).filter((hash) => hash.startsWith('hash-bulk'))).toEqual(
      [],
    );
  });

  it('leaves sign-ins working: a live token still rotates after a cleanup', async () => {
    const issued = await issueRefreshToken(database.db, userId);
    await deleteExpiredCredentials(database.db);
    const rotated = await rotateRefreshToken(database.db, issued.token, SECRET);
    expect(rotated).toMatchObject({ ok: true, userId });
  });
});
