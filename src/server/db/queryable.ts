// One interface over both engines. Everything above this file writes plain PostgreSQL SQL with
// $1 placeholders; counts are cast (::int) in SQL because the two drivers map int8 differently.
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs a statement whose text is sent again and again (the recorder's batches), its rows unread:
   * prepared once (per connection), then only bound and executed. Every parameter's type must be
   * given by a cast. Absent where it would not pay (a transaction's statements).
   */
  runPrepared?(sql: string, params: unknown[]): Promise<void>;
}

export interface Database extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; a thrown error rolls it back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Multiple statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** LISTEN on a channel; returns the unlisten function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * NOTIFY each payload on the channel in one statement (one transaction), so listeners receive
   * them in this order. Separate statements on separate pool connections may commit, and so be
   * delivered, in any order.
   */
  notify(channel: string, ...payloads: string[]): Promise<void>;
  close(): Promise<void>;
  /**
   * PGlite in a data folder: the fsyncs it has made since it opened (pgliteDurability.ts); absent
   * in memory and on PostgreSQL, whose server syncs its own files.
   */
  fsyncCount?(): Promise<number>;
  /** Connections of the PostgreSQL pool (PGlite has one session and no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
}
