import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database, Queryable } from './queryable';
import { NOTIFY_SQL, notifyParams } from './notifyStatement';
import { DURABLE_PGLITE_SOURCE } from './pgliteDurability';
import { PARAMETER_SERIALIZERS_SOURCE } from './pgliteParameters';
import { PREPARED_STATEMENTS_SOURCE } from './pglitePrepared';

// PGlite (PostgreSQL compiled to WASM) executes on the thread that calls it. On the server's own
// thread, every statement — a recorder flush of a few hundred rows takes 10–30 ms — stalls every
// request for its whole duration. Here PGlite runs in a worker thread behind the same `Database`
// interface: statements travel as messages, results come back as structured clones, and the
// server's event loop only waits (asynchronously) for the answer.
//
// The worker's code is a string evaluated in the worker (`eval: true`), so the same file works
// from TypeScript sources (ts-node, Jest) and from the compiled build alike; it loads PGlite's
// CommonJS build by absolute path.

const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglitePath);
let db;
// On disk only (pgliteDurability.ts).
let durable;
const transactions = new Map();
const listeners = new Map();

function errorShape(error) {
  const shape = { message: error && error.message ? String(error.message) : String(error) };
  if (error && typeof error === 'object') {
    for (const key of Object.keys(error)) {
      const value = error[key];
      if (value === undefined || typeof value === 'function' || (typeof value === 'object' && value !== null)) continue;
      shape[key] = value;
    }
  }
  return shape;
}
// On Linux a thread has a nice value of its own: setpriority() with the thread's id, which
// /proc/thread-self names. Elsewhere (or without /proc) the thread keeps the process's priority.
function lowerThreadPriority(nice) {
  if (!nice) return;
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) require('node:os').setPriority(tid, nice);
  } catch {}
}
${PARAMETER_SERIALIZERS_SOURCE}
${PREPARED_STATEMENTS_SOURCE}
${DURABLE_PGLITE_SOURCE}
let QUERY_OPTIONS;
let PREPARED;
const reply = (id, rows) => parentPort.postMessage({ id, ok: true, rows });
const fail = (id, error) => parentPort.postMessage({ id, ok: false, error: errorShape(error) });

// A transaction holds PGlite's transaction open while the main thread sends its statements one
// by one; 'end' with commit true/false finishes it.
function openTransaction(id, txId) {
  const queue = [];
  let wake;
  const next = () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((resolve) => (wake = resolve)));
  transactions.set(txId, (message) => {
    if (wake) {
      const w = wake;
      wake = undefined;
      w(message);
    } else queue.push(message);
  });
  let endId;
  db.transaction(async (tx) => {
    reply(id, []);
    for (;;) {
      const message = await next();
      if (message.op === 'end') {
        endId = message.id;
        if (!message.commit) await tx.rollback();
        return;
      }
      try {
        reply(message.id, (await tx.query(message.sql, message.params, QUERY_OPTIONS)).rows);
      } catch (error) {
        fail(message.id, error);
      }
    }
  }).then(
    () => {
      transactions.delete(txId);
      reply(endId, []);
    },
    (error) => {
      transactions.delete(txId);
      if (endId === undefined) fail(id, error);
      else fail(endId, error);
    },
  );
}

parentPort.on('message', async (message) => {
  const { id, op } = message;
  try {
    if (op === 'open') {
      lowerThreadPriority(workerData.nice);
      if (workerData.dataDir) {
        durable = durablePglite(PGlite, require('node:fs'), require('node:path'), workerData.dataDir);
        db = await PGlite.create(workerData.dataDir, durable.options);
        durable.syncFolder();
      } else db = await PGlite.create();
      QUERY_OPTIONS = { serializers: parameterSerializers(db) };
      PREPARED = preparedStatements(db);
      return reply(id, []);
    }
    if (message.txId !== undefined && op !== 'begin') {
      const deliver = transactions.get(message.txId);
      if (!deliver) return fail(id, new Error('The transaction has already ended'));
      return deliver(message);
    }
    if (op === 'query') return reply(id, (await db.query(message.sql, message.params, QUERY_OPTIONS)).rows);
    if (op === 'prepared') {
      await PREPARED.run(message.sql, message.params);
      return reply(id, []);
    }
    if (op === 'exec') {
      await db.exec(message.sql);
      return reply(id, []);
    }
    if (op === 'begin') return openTransaction(id, message.txId);
    if (op === 'fsyncs') return reply(id, [{ fsyncs: durable ? durable.stats.fsyncs : 0 }]);
    if (op === 'listen') {
      if (!listeners.has(message.channel)) {
        const unlisten = await db.listen(message.channel, (payload) => parentPort.postMessage({ notification: message.channel, payload }));
        listeners.set(message.channel, unlisten);
      }
      return reply(id, []);
    }
    if (op === 'close') {
      if (db && !db.closed) await db.close();
      reply(id, []);
      return;
    }
    fail(id, new Error('Unknown operation ' + op));
  } catch (error) {
    fail(id, error);
  }
});
`;

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
