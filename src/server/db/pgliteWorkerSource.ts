import { DURABLE_PGLITE_SOURCE } from './pgliteDurability';
import { PARAMETER_SERIALIZERS_SOURCE } from './pgliteParameters';
import { PREPARED_STATEMENTS_SOURCE } from './pglitePrepared';

// What PGlite's thread runs (pgliteThread.ts starts it and talks to it): it opens PGlite, answers
// each message (query, prepared statement, exec, a transaction's statements, listen, close) and
// posts notifications back.
//
// The worker's code is a string evaluated in the worker (`eval: true`), so the same source works
// from TypeScript sources (ts-node, Jest) and from the compiled build alike; it loads PGlite's
// CommonJS build by absolute path.

export const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglitePath);
let db;
// The fsyncs PGlite on disk has made (pgliteDurability.ts).
let fsyncStats;
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
      ({ db, stats: fsyncStats } = await openPglite(PGlite, require('node:fs'), require('node:path'), workerData.dataDir));
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
    if (op === 'fsyncs') return reply(id, [{ fsyncs: fsyncStats.fsyncs }]);
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
