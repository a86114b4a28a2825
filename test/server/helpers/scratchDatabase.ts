import { randomBytes } from 'node:crypto';
import pg from 'pg';

// A throw-away PostgreSQL database beside `baseUrl` (tests with TEST_DATABASE_URL, benches with
// BENCH_DATABASE_URL): created empty, dropped with force so leftover connections cannot stop it.
export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function run(baseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await run(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => run(baseUrl, `drop database if exists ${name} with (force)`) };
}
