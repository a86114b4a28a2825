import type { Database, Queryable } from '../../db/database';
import type { UserDto } from '../../../contract/auth';

// Reading and writing users. The DTO follows SPEC §3: fullName joins first and last name,
// updatedAt falls back to createdAt, workspaceCount counts the workspaces the user belongs to.
export interface UserRow {
  id: string;
  email: string;
  /** null: made by a provider sign-in, no password set yet. */
  password_hash: string | null;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
  email_verified_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
  workspace_count: number;
}

const SELECT_USER = `select u.id, u.email, u.password_hash, u.first_name, u.last_name, u.avatar_url, u.email_verified_at, u.created_at, u.updated_at,
  (select count(*)::int from workspace_members m where m.user_id = u.id) as workspace_count
  from users u`;

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>(`${SELECT_USER} where u.email = $1`, [email]))[0];
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>(`${SELECT_USER} where u.id = $1`, [id]))[0];
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
}

export async function insertUser(db: Queryable, user: NewUser): Promise<string> {
  const rows = await db.query<{ id: string }>(
    'insert into users (email, password_hash, first_name, last_name) values ($1, $2, $3, $4) returning id',
    [user.email, user.passwordHash, user.firstName, user.lastName],
  );
  return rows[0].id;
}

export async function updatePasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query('update users set password_hash = $2, updated_at = now() where id = $1', [userId, passwordHash]);
}

export function toUserDto(row: UserRow): UserDto {
  const createdAt = new Date(row.created_at).toISOString();
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    fullName: `${row.first_name} ${row.last_name}`.trim(),
    avatarUrl: row.avatar_url,
    emailVerified: row.email_verified_at !== null,
    createdAt,
    updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : createdAt,
    workspaceCount: row.workspace_count,
  };
}

export async function readPreferences(db: Queryable, userId: string): Promise<Record<string, unknown> | undefined> {
  const rows = await db.query<{ preferences: Record<string, unknown> }>('select preferences from users where id = $1', [
    userId,
  ]);
  return rows[0]?.preferences;
}

export type PreferencesUpdate =
  { ok: true; preferences: Record<string, unknown> } | { ok: false; reason: 'no_user' | 'too_large' };

/**
 * Shallow merge: keys sent replace stored ones, keys sent as null are removed. The cap applies to
 * what is stored, not only to one request, or many small PUTs of new keys would grow the row
 * without bound. The row is locked so two concurrent PUTs cannot undo each other.
 */
export async function mergePreferences(
  db: Database,
  userId: string,
  changes: Record<string, unknown>,
  maxBytes: number,
): Promise<PreferencesUpdate> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ preferences: Record<string, unknown> }>(
      'select preferences from users where id = $1 for update',
      [userId],
    );
    if (!rows[0]) return { ok: false, reason: 'no_user' };
    const next: Record<string, unknown> = { ...rows[0].preferences };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) Reflect.deleteProperty(next, key);
      else next[key] = value;
    }
    const text = JSON.stringify(next);
    if (Buffer.byteLength(text) > maxBytes) return { ok: false, reason: 'too_large' };
    await tx.query('update users set preferences = $2::jsonb, updated_at = now() where id = $1', [userId, text]);
    return { ok: true, preferences: next };
  });
}

export interface ProfileChanges {
  firstName?: string;
  lastName?: string;
  avatarUrl?: string | null;
}

/** Changes the keys given; returns the updated row, or undefined for an unknown user. */
export async function updateProfile(
  db: Queryable,
  userId: string,
  changes: ProfileChanges,
): Promise<UserRow | undefined> {
  await db.query(
    `update users set
       first_name = coalesce($2, first_name),
       last_name = coalesce($3, last_name),
       avatar_url = case when $4::boolean then $5 else avatar_url end,
       updated_at = now()
     where id = $1`,
    [
      userId,
      changes.firstName ?? null,
      changes.lastName ?? null,
      changes.avatarUrl !== undefined,
      changes.avatarUrl ?? null,
    ],
  );
  return findUserById(db, userId);
}
