import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import pg from 'pg';
import { NOTIFY_SQL, notifyParams } from './notifyStatement';
import { DURABLE_PGLITE_SOURCE, type OpenedPglite } from './pgliteDurability';
import { PARAMETER_SERIALIZERS_SOURCE } from './pgliteParameters';
import { PREPARED_STATEMENTS_SOURCE } from './pglitePrepared';
import { PgliteThreadDatabase } from './pgliteThread';
import { PgListener } from './pgListener';
import { makePrivateDir } from '../files/privatePaths';

export type { Database, Queryable } from './queryable';
import type { Database, Queryable } from './queryable';

/**
 * The worker's serializers (pgliteThread.ts), so both ways of running PGlite send the same bytes.
 * (PGlite's type says a serializer returns a string; at run time it sends a returned Uint8Array as
 * bytes, which these rely on.)
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the worker evaluates this same source text; evaluating it here too keeps the two byte for byte alike
const makeParameterSerializers = new Function(
  `${PARAMETER_SERIALIZERS_SOURCE}\nreturn parameterSerializers;`,
) as () => (db: PGlite) => QueryOptions['serializers'];
const parameterSerializers = makeParameterSerializers();
/** The worker's prepared statements (pglitePrepared.ts), likewise. */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the worker evaluates this same source text; evaluating it here too keeps the two alike
const makePreparedStatements = new Function(`${PREPARED_STATEMENTS_SOURCE}\nreturn preparedStatements;`) as () => (
  db: PGlite,
) => {
  run(sql: string, params: unknown[]): Promise<void>;
};
const preparedStatements = makePreparedStatements();
/** PGlite opened as the worker opens it: on disk, made durable (pgliteDurability.ts). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the worker evaluates this same source text; evaluating it here too keeps the two alike
const makeOpenPglite = new Function(`${DURABLE_PGLITE_SOURCE}\nreturn openPglite;`) as () => (
  pglite: typeof PGlite,
  nodeFs: typeof fs,
  nodePath: typeof path,
  dataDir: string | undefined,
) => Promise<OpenedPglite>;
const openPglite = makeOpenPglite();

class PgliteDatabase implements Database {
  readonly engine = 'pglite' as const;
  private readonly options: QueryOptions;
  private readonly prepared: ReturnType<typeof preparedStatements>;
  constructor(
    private readonly db: PGlite,
    private readonly fsyncStats: { fsyncs: number },
  ) {
    this.options = { serializers: parameterSerializers(db) };
    this.prepared = preparedStatements(db);
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const result = await this.db.query<T>(sql, params, this.options);
    return result.rows;
  }

  runPrepared(sql: string, params: unknown[]): Promise<void> {
    return this.prepared.run(sql, params);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) =>
      fn({
        query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params, this.options)).rows,
      }),
    );
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  fsyncCount(): Promise<number> {
    return Promise.resolve(this.fsyncStats.fsyncs);
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const unlisten = await this.db.listen(channel, onPayload);
    return async () => unlisten();
  }

  async notify(channel: string, ...payloads: string[]): Promise<void> {
    await this.db.query(NOTIFY_SQL, notifyParams(channel, payloads), this.options);
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

/** Wait before re-opening the LISTEN connection after it was lost (a restart, a failover). */
class PostgresDatabase implements Database {
  readonly engine = 'postgres' as const;

  poolStats(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }
  private readonly listener: PgListener;

  constructor(
    private readonly pool: pg.Pool,
    url: string,
    private readonly onBackgroundError: (error: Error) => void,
  ) {
    this.listener = new PgListener(url, onBackgroundError);
    // An idle pooled connection that the server drops emits 'error'; unhandled, it would end
    // the process. The pool replaces the connection on the next query.
    pool.on('error', (error) => this.onBackgroundError(error));
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const result = await this.pool.query(sql, params);
    return result.rows as T[];
  }

  /**
   * Statement text → name: node-postgres prepares a named statement once per pooled connection. The
   * name is a hash of the text, so that through a pooler (where instances, and an instance after a
   * restart, share server connections) one name never stands for two texts.
   */
  private readonly statementNames = new Map<string, string>();
  /**
   * Off once the server lost a statement this connection had prepared, or had one it had not: a
   * pooler in transaction mode (PgBouncer without prepared-statement support, RDS Proxy…) hands
   * each statement to any server connection. Unnamed statements work behind every pooler.
   */
  private namedStatements = true;

  async runPrepared(sql: string, params: unknown[]): Promise<void> {
    let name = this.statementNames.get(sql);
    if (name === undefined && this.statementNames.size < 64) {
      name = `toolscope_${createHash('sha256').update(sql).digest('hex').slice(0, 40)}`;
      this.statementNames.set(sql, name);
    }
    if (name === undefined || !this.namedStatements) {
      await this.pool.query(sql, params);
      return;
    }
    try {
      await this.pool.query({ name, text: sql, values: params });
    } catch (error) {
      // 26000: no such prepared statement; 42P05: it exists already. Neither says anything about
      // the rows: the statement runs again, unnamed (and so does every later one).
      const code = (error as { code?: unknown }).code;
      if (code !== '26000' && code !== '42P05') throw error;
      this.namedStatements = false;
      await this.pool.query(sql, params);
    }
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A connection lost while checked out (between two statements of the transaction) is reported
    // as an 'error' event, which would crash the process with no listener: the next statement fails instead.
    // Set by onLost, which the client's 'error' event may call during any await below.
    let lost = false as boolean;
    const onLost = (error: Error) => {
      lost = true;
      this.onBackgroundError(error);
    };
    client.on('error', onLost);
    try {
      await client.query('begin');
      const value = await fn({
        query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
      });
      await client.query('commit');
      return value;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', onLost);
      client.release(lost ? true : undefined);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    return this.listener.listen(channel, onPayload);
  }

  async notify(channel: string, ...payloads: string[]): Promise<void> {
    await this.pool.query(NOTIFY_SQL, notifyParams(channel, payloads));
  }

  async close(): Promise<void> {
    await this.listener.close();
    await this.pool.end();
  }
}

export interface OpenDatabaseOptions {
  /** postgres://… selects PostgreSQL; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; undefined = in memory (tests). */
  dataDir?: string;
  /** A PostgreSQL connection failed outside any query (the server restarted): reported, survived. */
  onBackgroundError?: (error: Error) => void;
  /**
   * Run PGlite on the calling thread instead of its own worker thread (benchmark comparison only:
   * on the server's thread every statement stalls every request while it runs).
   */
  pgliteOnCallingThread?: boolean;
  /**
   * The nice value of PGlite's thread (Linux; 0 = the process's own). The proxy answers agents on
   * the main thread while the recorder's writes run on PGlite's: when both want a core, the agent's
   * request should win, and the writes catch up in the gaps (docs/proxy.md, "Recorder").
   */
  pgliteNice?: number;
}

const noResult = (): void => undefined;
const turnJitOff = (client: pg.ClientBase): Promise<void> => client.query('set jit = off').then(noResult, noResult);

const reportBackgroundError = (error: Error) =>
  console.error(`Database connection error (reconnecting): ${error.message}`);

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    // JIT off on every connection: Toolscope's queries are short, and a row-count misestimate
    // (the replay's join of a session's messages and calls across partitions) pushed them over the
    // JIT's cost threshold, where compiling took seconds: a replay at 300,000 stored calls took
    // 3.2 s with it and 73 ms without (docs/scaling.md). A SET, not a startup option, so poolers
    // that refuse startup parameters still connect; a server without the setting ignores it. In
    // onConnect, which the pool awaits before it hands the connection out (a query sent from the
    // 'connect' event would still be running when the first caller's query was queued behind it).
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // @types/pg types onConnect as returning void; pg-pool awaits the promise it returns.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      onConnect: turnJitOff,
    });
    await pool.query('select 1');
    return new PostgresDatabase(pool, options.databaseUrl, options.onBackgroundError ?? reportBackgroundError);
  }
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, 'pglite');
    makePrivateDir(dir);
  }
  if (options.pgliteOnCallingThread) {
    const { db, stats } = await openPglite(PGlite, fs, path, dir);
    return new PgliteDatabase(db, stats);
  }
  return PgliteThreadDatabase.open(dir, options.pgliteNice ?? 0);
}
