/**
 * Named prepared statements for PGlite, as source evaluated where PGlite runs (its worker thread,
 * pgliteThread.ts, and the calling thread, database.ts), like pgliteParameters.ts.
 *
 * PGlite's query() sends every statement anew: parse, analyze and plan, in four round trips into the
 * engine (parse, describe, bind + execute, sync) and with PGlite's own JavaScript serializers. The
 * recorder sends the same few statement texts over and over, one per flush: here each text is
 * parsed once, as a named statement, and every later run is a single round trip of Bind, Execute
 * and Sync. Side by side on a batch of 40 tool calls: 2.31 → 1.44 ms; of 200: 7.16 → 5.83 ms
 * (docs/benchmarks.md, "Prepared batch statements").
 *
 * Parameters: a byte array (Buffer/Uint8Array) goes in binary format, as query() sends it here
 * (the recorder's binary arrays); null/undefined as NULL; anything else as its text (objects, and
 * JavaScript arrays too, as JSON: give a PostgreSQL array as a binary array). The statement must give every parameter's type (a cast), as none is sent with the Parse.
 * Statements run under the same two locks as query(), so one never runs inside a transaction that
 * another caller holds open on PGlite's single session.
 */
export const PREPARED_STATEMENTS_SOURCE = String.raw`
function preparedStatements(db) {
  /** Statement text → its name. Beyond MAX_NAMED texts a statement is parsed unnamed, each time. */
  const names = new Map();
  const MAX_NAMED = 64;
  const cstring = (text) => Buffer.from(text + '\0', 'utf8');
  const int16 = (value) => { const b = Buffer.allocUnsafe(2); b.writeInt16BE(value, 0); return b; };
  const int32 = (value) => { const b = Buffer.allocUnsafe(4); b.writeInt32BE(value, 0); return b; };
  const message = (type, parts) => {
    const length = parts.reduce((sum, part) => sum + part.length, 4);
    return Buffer.concat([Buffer.from(type, 'latin1'), int32(length), ...parts]);
  };
  const parse = (name, sql) => message('P', [cstring(name), cstring(sql), int16(0)]);
  const SYNC = message('S', []);
  const EXECUTE = message('E', [cstring(''), int32(0)]);
  function bind(name, params) {
    const formats = [int16(params.length)];
    const values = [int16(params.length)];
    for (const value of params) {
      if (value === null || value === undefined) {
        formats.push(int16(0));
        values.push(int32(-1));
        continue;
      }
      const binary = value instanceof Uint8Array;
      const bytes = binary ? value : Buffer.from(typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value instanceof Date ? value.toISOString() : String(value), 'utf8');
      formats.push(int16(binary ? 1 : 0));
      values.push(int32(bytes.length), bytes);
    }
    return message('B', [cstring(''), cstring(name), ...formats, ...values, int16(0)]);
  }
  const exclusive = (fn) => db._runExclusiveTransaction(() => db.runExclusive(fn));
  let nextName = 0;
  async function runOnce(sql, params) {
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_NAMED) {
      const candidate = 'toolscope_prepared_' + nextName++;
      // On its own: a Parse that succeeded is remembered even when the first run then fails.
      await db.execProtocol(Buffer.concat([parse(candidate, sql), SYNC]), { syncToFs: false });
      names.set(sql, (name = candidate));
    }
    const head = name === undefined ? [parse('', sql)] : [];
    await db.execProtocol(Buffer.concat([...head, bind(name ?? '', params), EXECUTE, SYNC]));
  }
  return {
    /** Runs the statement; its rows, if any, are not read. */
    run(sql, params) {
      return exclusive(async () => {
        try {
          await runOnce(sql, params);
        } catch (error) {
          // 26000: the statement is gone (someone ran DEALLOCATE on this session): prepared again.
          if (!error || error.code !== '26000' || !names.has(sql)) throw error;
          names.delete(sql);
          await runOnce(sql, params);
        }
      });
    },
  };
}`;
