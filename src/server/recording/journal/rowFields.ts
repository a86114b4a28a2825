// A journaled row's fields in binary (record format 2, recordCodec.ts): one after another, each
// [name: u8][type: u8][value]. Written straight from the live row — no copy of it, no JSON text of
// it — because the JSON header of formats 0 and 1 (a rest copy of the row, then JSON.stringify)
// was the recording path's largest allocation, twice per call (docs/benchmarks.md, issue 39).
// A field reads back as JSON.parse(JSON.stringify(row)) gave it: an undefined field is left out, a
// number that is not finite is null, an object or array (a call's `meta`) is kept as its JSON text.
// Text is UTF-8, as the raw texts of format 1 and the database's binary arrays write it (a lone
// surrogate reads back as U+FFFD, which is what the database stores for it either way).

/**
 * Field names by their number on disk. Append only: a name's number is part of the format, so a
 * segment a previous process left reads back with the same names. A name not listed here is
 * written in full (INLINE_NAME), so a new field of a row needs no change here to be journaled.
 */
const FIELD_NAMES = [
  // tool calls (rows.ts QueuedToolCall)
  'id',
  'workspace_id',
  'server_id',
  'server_name',
  'session_id',
  'platform_key_id',
  'jsonrpc_id',
  'tool_name',
  'error_message',
  'status',
  'started_at',
  'ended_at',
  'duration_ms',
  'request_bytes',
  'response_bytes',
  'tokens_estimate',
  'meta',
  'traceparent',
  'request_seq',
  'request_payload',
  'request_truncated',
  'response_seq',
  'response_kind',
  'response_payload',
  'response_truncated',
  'argument_tokens',
  'result_tokens',
  'error_class',
  'task_id',
  'task_status',
  'input_state',
  'task_expires_at',
  'retry_state',
  // messages (QueuedMessage)
  'seq',
  'direction',
  'kind',
  'method',
  'payload',
  'size_bytes',
  'truncated',
  'created_at',
  'progress_count',
  // sessions (SessionState) and their counts (JournaledCounts)
  'mcp_session_id',
  'transport',
  'protocol_version',
  'client_name',
  'client_version',
  'client_key',
  'trace_id',
  'last_activity_at',
  'message_count',
  'call_count',
  'error_count',
  'definition_tokens',
  'recorder_id',
] as const;

const FIELD_NUMBER = new Map<string, number>(FIELD_NAMES.map((name, i) => [name, i]));
/** The name follows in full: [length: u16 LE][UTF-8]. */
const INLINE_NAME = 255;

const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const INT32 = 3;
const FLOAT64 = 4;
/** [byte length: u32 LE][UTF-8] */
const TEXT = 5;
/** An object or array: [byte length: u32 LE][its JSON text, UTF-8] */
const JSON_TEXT = 6;

/** Where fields are written: room is asked for before each, the buffer may be replaced (grown). */
export interface FieldSink {
  /** The buffer with room for `bytes` more bytes at `at` (the bytes before `at` kept). */
  room(at: number, bytes: number): Buffer;
}

/** Writes the row's own fields but `omit` at `at`; returns where the next byte goes. */
export function writeFields(sink: FieldSink, at: number, row: object, omit: ReadonlySet<string> | undefined): number {
  // for…in: rows are plain object literals (nothing enumerable inherited), and it reads the
  // object's cached key list instead of allocating one (Object.keys) per record.
  for (const name in row) {
    if (omit !== undefined && omit.has(name)) continue;
    const value: unknown = (row as Record<string, unknown>)[name];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const number = FIELD_NUMBER.get(name);
    let bytes: Buffer;
    if (number === undefined) {
      bytes = sink.room(at, 3 + 3 * name.length);
      bytes[at] = INLINE_NAME;
      const nameBytes = bytes.write(name, at + 3, 'utf8');
      bytes.writeUInt16LE(nameBytes, at + 1);
      at += 3 + nameBytes;
    }
    if (typeof value === 'string' || (typeof value === 'object' && value !== null)) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      bytes = sink.room(at, 6 + 3 * text.length);
      if (number !== undefined) bytes[at++] = number;
      bytes[at] = typeof value === 'string' ? TEXT : JSON_TEXT;
      const textBytes = text.length === 0 ? 0 : bytes.write(text, at + 5, 'utf8');
      bytes.writeUInt32LE(textBytes, at + 1);
      at += 5 + textBytes;
      continue;
    }
    bytes = sink.room(at, 10);
    if (number !== undefined) bytes[at++] = number;
    if (typeof value === 'number') {
      if ((value | 0) === value) {
        bytes[at] = INT32;
        bytes.writeInt32LE(value, at + 1);
        at += 5;
      } else if (Number.isFinite(value)) {
        bytes[at] = FLOAT64;
        bytes.writeDoubleLE(value, at + 1);
        at += 9;
      } else bytes[at++] = NULL; // as JSON writes NaN and ±Infinity
    } else if (typeof value === 'boolean') bytes[at++] = value ? TRUE : FALSE;
    else if (value === null) bytes[at++] = NULL;
    else throw new TypeError(`A journaled field cannot hold a ${typeof value}: ${name}`);
  }
  return at;
}

/** The fields of `payload` from `at` to its end, as a row; throws at anything this format never writes. */
export function readFields(payload: Buffer, at: number): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const end = payload.length;
  while (at < end) {
    const number = payload[at++];
    let name: string | undefined;
    if (number === INLINE_NAME) {
      const length = payload.readUInt16LE(at);
      if (at + 2 + length > end) throw new Error('field name past the record');
      name = payload.toString('utf8', at + 2, at + 2 + length);
      at += 2 + length;
    } else name = FIELD_NAMES.at(number); // undefined past the table: not a record of ours
    if (name === undefined || at >= end) throw new Error('unknown journal field');
    const type = payload[at++];
    switch (type) {
      case NULL:
        row[name] = null;
        break;
      case FALSE:
      case TRUE:
        row[name] = type === TRUE;
        break;
      case INT32:
        row[name] = payload.readInt32LE(at);
        at += 4;
        break;
      case FLOAT64:
        row[name] = payload.readDoubleLE(at);
        at += 8;
        break;
      case TEXT:
      case JSON_TEXT: {
        const length = payload.readUInt32LE(at);
        if (at + 4 + length > end) throw new Error('text past the record');
        const text = payload.toString('utf8', at + 4, at + 4 + length);
        row[name] = type === TEXT ? text : (JSON.parse(text) as unknown);
        at += 4 + length;
        break;
      }
      default:
        throw new Error('unknown journal field type');
    }
  }
  return row;
}
