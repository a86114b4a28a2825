/**
 * How PGlite sends parameters, as source evaluated where PGlite runs: in its worker thread
 * (pgliteThread.ts), and through new Function on the calling thread (database.ts). Two changes to PGlite's own serializers, which send every parameter as text:
 * - A parameter given as bytes (Buffer/Uint8Array) goes as bytes, in PostgreSQL's binary format,
 *   whatever its type: the recorder's tool-call columns are binary arrays (binaryArrays.ts).
 *   PGlite's default would call toString() on them for a type it has no serializer for (uuid[]).
 * - A long JSON text goes as bytes too: PGlite measures and encodes a string's UTF-8 in JavaScript
 *   loops (twice over), Buffer.from natively; for json the binary format is the text itself, for
 *   jsonb a version byte 1 and the text. The database reads and validates it exactly as the text
 *   form. Short ones stay text: a Buffer costs more than the loop there.
 * The recorder's batches (hundreds of KB per flush) spent ~15 µs per recorded call in those loops
 * (docs/benchmarks.md, "Recorder batch encoding").
 */
export const PARAMETER_SERIALIZERS_SOURCE = String.raw`
const BYTES_FROM_LENGTH = 2048;
const jsonText = (value) => (typeof value === 'string' ? value : JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v)));
function jsonAsBytes(value) {
  const text = jsonText(value);
  return text.length < BYTES_FROM_LENGTH ? text : Buffer.from(text, 'utf8');
}
function jsonbAsBytes(value) {
  const text = jsonText(value);
  if (text.length < BYTES_FROM_LENGTH) return text;
  const bytes = Buffer.allocUnsafe(1 + Buffer.byteLength(text, 'utf8'));
  bytes[0] = 1;
  bytes.write(text, 1, 'utf8');
  return bytes;
}
// PGlite asks serializers[typeOid] for each parameter; its own table (db.serializers) gains array
// types as it learns them, so it is read at each call.
function parameterSerializers(db) {
  const byOid = new Map();
  const serializerFor = (oid) => {
    const own = oid === '114' ? jsonAsBytes : oid === '3802' ? jsonbAsBytes : undefined;
    return (value) => {
      if (ArrayBuffer.isView(value)) return value;
      const serialize = own ?? db.serializers[oid];
      return serialize ? serialize(value) : value.toString();
    };
  };
  return new Proxy({}, {
    get: (_target, oid) => {
      let serializer = byOid.get(oid);
      if (!serializer) byOid.set(oid, (serializer = serializerFor(String(oid))));
      return serializer;
    },
  });
}`;
