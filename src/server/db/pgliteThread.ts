import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database, Queryable } from './queryable';
import { NOTIFY_SQL, notifyParams } from './notifyStatement';
import { WORKER_SOURCE } from './pgliteWorkerSource';

// PGlite (PostgreSQL compiled to WASM) executes on the thread that calls it. On the server's own
// thread, every statement — a recorder flush of a few hundred rows takes 10–30 ms — stalls every
// request for its whole duration. Here PGlite runs in a worker thread behind the same `Database`
// interface: statements travel as messages, results come back as structured clones, and the
// server's event loop only waits (asynchronously) for the answer. What the thread runs is
// pgliteWorkerSource.ts.

interface WorkerReply {
  id: number;
  ok: boolean;
  rows?: unknown[];
  error?: { message: string; [key: string]: unknown };
}

interface WorkerNotification {
  notification: string;
  payload: string;
}

/** An error of the worker's PGlite, with its PostgreSQL fields (code, constraint, detail…) kept. */
function toError(shape: { message: string; [key: string]: unknown }): Error {
  const error = new Error(shape.message);
  for (const [key, value] of Object.entries(shape))
    if (key !== 'message' && key !== 'stack') (error as unknown as Record<string, unknown>)[key] = value;
  return error;
}

/**
 * Values cloned from the worker are built by this thread's main realm. Code evaluated in another
 * realm of this thread (Jest runs tests in a vm context) would see a Date that fails
 * `instanceof Date`, as PGlite's own results on this thread never did: such Dates and byte arrays
 * are rebuilt here. JSON values (plain objects) need no rebuilding.
 */
function toLocalRealm(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof Uint8Array) return value;
  if (Array.isArray(value))
    return value.some((item) => typeof item === 'object' && item !== null) ? value.map(toLocalRealm) : value;
  if (Object.prototype.toString.call(value) === '[object Date]') return new Date((value as Date).getTime());
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

function rowsToLocalRealm(rows: unknown[]): unknown[] {
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    const record = row as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (typeof value === 'object' && value !== null && !(value instanceof Date)) record[key] = toLocalRealm(value);
    }
  }
  return rows;
}

export class PgliteThreadDatabase implements Database {
  readonly engine = 'pglite' as const;
  private nextId = 1;
  private nextTxId = 1;
  private readonly waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  private exited: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: WorkerReply | WorkerNotification) => {
      if ('notification' in message) {
        for (const handler of this.handlers.get(message.notification) ?? []) handler(message.payload);
        return;
      }
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      this.updateRef();
      if (message.ok) waiter.resolve(rowsToLocalRealm(message.rows ?? []));
      else waiter.reject(toError(message.error ?? { message: 'Database error' }));
    });
    const failAll = (error: Error) => {
      this.exited = error;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`The database thread exited (${code})`)));
    worker.unref();
  }

  /** `nice`: the database thread's nice value (Linux), so request handling wins the CPU when both want it. */
  static async open(dataDir: string | undefined, nice = 0): Promise<PgliteThreadDatabase> {
    const pglitePath = createRequire(__filename).resolve('@electric-sql/pglite');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pglitePath, dataDir, nice } });
    const db = new PgliteThreadDatabase(worker);
    try {
      await db.send({ op: 'open' });
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return db;
  }

  /** The worker keeps the process alive only while an answer is awaited (like a socket would). */
  private updateRef(): void {
    if (this.waiting.size > 0) this.worker.ref();
    else this.worker.unref();
  }

  private send<T>(message: Record<string, unknown>): Promise<T[]> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise<T[]>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      this.updateRef();
      this.worker.postMessage({ ...message, id });
    });
  }

  query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.send<T>({ op: 'query', sql, params });
  }

  async fsyncCount(): Promise<number> {
    const [{ fsyncs }] = await this.send<{ fsyncs: number }>({ op: 'fsyncs' });
    return fsyncs;
  }

  async runPrepared(sql: string, params: unknown[]): Promise<void> {
    await this.send({ op: 'prepared', sql, params });
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const txId = this.nextTxId++;
    await this.send({ op: 'begin', txId });
    let value: T;
    try {
      value = await fn({
        query: <R>(sql: string, params: unknown[] = []) => this.send<R>({ op: 'query', txId, sql, params }),
      });
    } catch (error) {
      await this.send({ op: 'end', txId, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.send({ op: 'end', txId, commit: true });
    return value;
  }

  async exec(sql: string): Promise<void> {
    await this.send({ op: 'exec', sql });
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.send({ op: 'listen', channel });
    }
    set.add(onPayload);
    return () => {
      set.delete(onPayload);
      return Promise.resolve();
    };
  }

  async notify(channel: string, ...payloads: string[]): Promise<void> {
    await this.query(NOTIFY_SQL, notifyParams(channel, payloads));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.exited) await this.send({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}
