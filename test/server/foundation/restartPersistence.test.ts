// Two app starts on one database take a while on a loaded machine.
jest.setTimeout(120_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../../../src/server/app';
import { generateSecret, loadConfig } from '../../../src/server/config';
import { openDatabase, type Database } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { MIGRATIONS } from '../../../src/server/db/migrations';
import { engineName } from '../helpers/testDatabase';

/** A database that outlives one open/close: a PGlite data folder, or a fresh PostgreSQL database. */
async function persistentDatabase(): Promise<{ open(): Promise<Database>; remove(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-restart-'));
    return {
      open: () => openDatabase({ dataDir }),
      remove: () => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const name = `toolscope_restart_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    open: () => openDatabase({ databaseUrl: url.toString() }),
    remove: () => admin(`drop database if exists ${name} with (force)`),
  };
}

describe(`data survives a restart (${engineName})`, () => {
  it('start, migrate, register, stop; start again: nothing re-applied, the account signs in, its refresh token still works', async () => {
    const store = await persistentDatabase();
    const config = loadConfig({}, { secret: generateSecret(), clientDir: undefined, journalDir: undefined });
    const credentials = { email: 'persist@example.com', password: 'survives restarts' };
    try {
      const firstDb = await store.open();
      expect(await migrate(firstDb)).toEqual(MIGRATIONS.map((m) => m.id));
      const first = await buildApp({ config, db: firstDb });
      const registered = await first.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { ...credentials, passwordConfirmation: credentials.password, firstName: 'Per', lastName: 'Sist' },
      });
      expect(registered.statusCode).toBe(201);
      await first.close();
      await firstDb.close();

      const secondDb = await store.open();
      expect(await migrate(secondDb)).toEqual([]);
      const second = await buildApp({ config, db: secondDb });
      const login = await second.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
      expect(login.statusCode).toBe(200);
      expect(login.json().user).toMatchObject({ id: registered.json().user.id, workspaceCount: 1 });
      const refreshed = await second.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        payload: { refreshToken: registered.json().refreshToken },
      });
      expect(refreshed.statusCode).toBe(200);
      // An access token issued before the restart is still valid (same secret, kept in the data dir by main.ts).
      const me = await second.inject({
        method: 'GET',
        url: '/api/v1/users/me',
        headers: { authorization: `Bearer ${registered.json().accessToken}` },
      });
      expect(me.statusCode).toBe(200);
      await second.close();
      await secondDb.close();
    } finally {
      await store.remove();
    }
  });
});
