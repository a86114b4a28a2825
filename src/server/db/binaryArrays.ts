// One-dimensional arrays in PostgreSQL's binary format, as a parameter both drivers send as bytes
// (node-postgres and PGlite send a Buffer/Uint8Array parameter in binary format). The recorder
// writes a batch's tool calls as one such array per column, unnested by the database: no text to
// escape here, and no text to parse there — a uuid is 16 bytes copied, a timestamp 8, a payload its
// UTF-8 bytes with a length in front. Text parsing (JSON with a hash table per row, uuid and
// timestamp input functions) was ~13 µs of PGlite's ~85 µs per recorded call
// (docs/benchmarks.md, "Recorder batch encoding").
//
// Layout (array_recv): ndim, has-nulls flag, element type oid, then per dimension its length and
// lower bound; then each element as its byte length (-1 for NULL) and its bytes in the element
// type's binary format.

export type ElementType = 'uuid' | 'text' | 'int4' | 'bool' | 'timestamptz' | 'jsonb';

const OID: Record<ElementType, number> = { uuid: 2950, text: 25, int4: 23, bool: 16, timestamptz: 1184, jsonb: 3802 };
/** The element's SQL array type, for the cast the statement gives its parameter. */
export const ARRAY_TYPE: Record<ElementType, string> = {
  uuid: 'uuid[]',
  text: 'text[]',
  int4: 'int[]',
  bool: 'bool[]',
  timestamptz: 'timestamptz[]',
  jsonb: 'jsonb[]',
};

const HEADER_BYTES = 20;
/** PostgreSQL's timestamps count microseconds from 2000-01-01T00:00:00Z. */
const POSTGRES_EPOCH_MS = 946_684_800_000;
const TWO_TO_32 = 2 ** 32;

/**
 * Text as the database takes it: NUL is the one character PostgreSQL text cannot hold (the binary
 * form would fail the whole statement on it), so it becomes U+FFFD. Lone surrogates need nothing:
 * UTF-8 encoding writes them as U+FFFD already.
 */
const storable = (text: string) => (text.includes('\0') ? text.replaceAll('\0', '\ufffd') : text);

/** Hex digit → its value, -1 for anything else. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;
}
/** Where the 16 bytes of a uuid's text start (the dashes sit at 8, 13, 18 and 23). */
const UUID_BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/** A uuid's 16 bytes, read straight from its text (a batch writes four per tool call). */
function writeUuid(text: string, out: Buffer, at: number): void {
  if (
    text.length !== 36 ||
    text.charCodeAt(8) !== 45 ||
    text.charCodeAt(13) !== 45 ||
    text.charCodeAt(18) !== 45 ||
    text.charCodeAt(23) !== 45
  ) {
    throw new TypeError(`Not a uuid: ${text.slice(0, 40)}`);
  }
  for (let i = 0; i < 16; i++) {
    const from = UUID_BYTE_AT[i];
    const high = HEX_VALUE[text.charCodeAt(from) & 127];
    const low = HEX_VALUE[text.charCodeAt(from + 1) & 127];
    if (high < 0 || low < 0 || text.charCodeAt(from) > 127 || text.charCodeAt(from + 1) > 127)
      throw new TypeError(`Not a uuid: ${text}`);
    out[at + i] = (high << 4) | low;
  }
}

function elementBytes(type: ElementType, value: unknown): number {
  switch (type) {
    case 'uuid':
      return 16;
    case 'int4':
      return 4;
    case 'bool':
      return 1;
    case 'timestamptz':
      return 8;
    case 'text':
      return Buffer.byteLength(value as string, 'utf8');
    case 'jsonb':
      return 1 + Buffer.byteLength(value as string, 'utf8');
  }
}

function writeElement(type: ElementType, value: unknown, out: Buffer, at: number): void {
  switch (type) {
    case 'uuid':
      writeUuid(value as string, out, at);
      return;
    case 'int4':
      // Buffer would write 1.5 as 1 and NaN as 0; the text form refused both.
      if (!Number.isInteger(value)) throw new TypeError(`Not an integer: ${String(value)}`);
      out.writeInt32BE(value as number, at);
      return;
    case 'bool':
      out[at] = value ? 1 : 0;
      return;
    case 'timestamptz': {
      const ms = typeof value === 'number' ? value : Date.parse(value as string);
      if (!Number.isFinite(ms)) throw new TypeError(`Not a timestamp: ${String(value).slice(0, 40)}`);
      // Whole microseconds as a signed 64-bit integer, written as two 32-bit halves: exact, as a
      // double holds every integer below 2^53 (the year 2255 in microseconds since 2000).
      const micros = Math.round((ms - POSTGRES_EPOCH_MS) * 1000);
      const high = Math.floor(micros / TWO_TO_32);
      out.writeInt32BE(high, at);
      out.writeUInt32BE(micros - high * TWO_TO_32, at + 4);
      return;
    }
    case 'text':
      out.write(value as string, at, 'utf8');
      return;
    case 'jsonb':
      out[at] = 1; // jsonb's binary format: a version byte, then the JSON text
      out.write(value as string, at + 1, 'utf8');
      return;
  }
}

/**
 * The values as one binary array of `type`. null/undefined are NULL; text and jsonb values are
 * strings (jsonb: JSON text), timestamps ISO strings or epoch milliseconds.
 */
export function binaryArray(type: ElementType, values: readonly unknown[]): Buffer {
  const texts = type === 'text' || type === 'jsonb';
  const prepared = texts ? values.map((value) => (value == null ? value : storable(value as string))) : values;
  let size = HEADER_BYTES + 4 * prepared.length;
  let hasNulls = 0;
  const sizes = new Int32Array(prepared.length);
  for (let i = 0; i < prepared.length; i++) {
    const value = prepared[i];
    if (value == null) {
      sizes[i] = -1;
      hasNulls = 1;
    } else {
      sizes[i] = elementBytes(type, value);
      size += sizes[i];
    }
  }
  // Its own ArrayBuffer, not a slice of Node's shared pool: a worker receiving the parameter
  // copies the whole backing store of a view, and a pool slab is 8 KB.
  const out = Buffer.allocUnsafeSlow(size);
  out.writeInt32BE(1, 0);
  out.writeInt32BE(hasNulls, 4);
  out.writeInt32BE(OID[type], 8);
  out.writeInt32BE(prepared.length, 12);
  out.writeInt32BE(1, 16);
  let at = HEADER_BYTES;
  for (let i = 0; i < prepared.length; i++) {
    out.writeInt32BE(sizes[i], at);
    at += 4;
    if (sizes[i] < 0) continue;
    writeElement(type, prepared[i], out, at);
    at += sizes[i];
  }
  return out;
}
