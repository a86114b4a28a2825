import type { Queryable } from '../../db/database';
import type { UserDto } from '../../../contract/auth';

// Reading and writing users. The DTO follows SPEC §3: fullName joins first and last name,
// updatedAt falls back to createdAt, workspaceCount counts the workspaces the user belongs to.
export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
  created_at: Date;
  updated_at: Date | null;
  workspace_count: number;
}

const SELECT_USER = `select u.id, u.email, u.password_hash, u.first_name, u.last_name, u.avatar_url, u.created_at, u.updated_at,
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
  passwordHash: string;
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
    createdAt,
    updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : createdAt,
    workspaceCount: row.workspace_count ?? 0,
  };
}

export async function readPreferences(db: Queryable, userId: string): Promise<Record<string, unknown> | undefined> {
  const rows = await db.query<{ preferences: Record<string, unknown> }>('select preferences from users where id = $1', [userId]);
  return rows[0]?.preferences;
}

/** Shallow merge: keys sent replace stored ones, keys sent as null are removed. */
export async function mergePreferences(db: Queryable, userId: string, changes: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const removed = Object.keys(changes).filter((key) => changes[key] === null);
  const kept = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== null));
  const rows = await db.query<{ preferences: Record<string, unknown> }>(
    `update users set preferences = (preferences || $2::jsonb) - $3::text[], updated_at = now() where id = $1 returning preferences`,
    [userId, JSON.stringify(kept), removed],
  );
  return rows[0]?.preferences;
}
