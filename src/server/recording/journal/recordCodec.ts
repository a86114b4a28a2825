import { crc32 } from 'node:zlib';

// One journal record on disk: [payload length: u32 LE][CRC-32 of the payload: u32 LE][payload].
// Length-prefixed so a reader finds the next record without scanning; checksummed so a torn or
// overwritten record is recognised, never replayed. The payload is either
// - the UTF-8 JSON of one JournalEntry (it starts with '{'), or
// - RAW_FORMAT, then [header length: u32 LE][header: UTF-8 JSON][raw texts, one after another]:
//   the entry without its long texts (message payloads as they crossed the wire), and the texts
//   themselves as bytes. The header's `t` names them with their byte lengths, in order. A payload
//   that is itself JSON would otherwise be escaped into the entry's JSON (every quote twice) and
//   parsed back; as bytes it costs a copy.

export const HEADER_BYTES = 8;
/** A record longer than this is not one we wrote: its length field is garbage. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;
const RAW_FORMAT = 0x01;

/** What a record holds: a row the recorder queued, in the shape the write queue holds it. */
export interface JournalEntry {
  /**
   * s: a session row snapshot, n: a session's counts alone (between snapshots), m: a message row,
   * c: a tool call row snapshot (pending or settled).
   */
  k: 's' | 'n' | 'm' | 'c';
  r: Record<string, unknown>;
}

/** A row's long texts, kept apart from its other fields (null: the field is null). */
export type RawTexts = readonly (readonly [name: string, text: string | null])[];

/** The record of `entry`, whose row also holds `texts` (written as raw bytes). */
export function encodeRecord(entry: JournalEntry, texts?: RawTexts): Buffer {
  if (!texts) return frame(Buffer.from(JSON.stringify(entry), 'utf8'));
  const lengths = texts.map(([, text]) => (text === null ? -1 : Buffer.byteLength(text, 'utf8')));
  const header = JSON.stringify({ k: entry.k, r: entry.r, t: texts.map(([name], i) => [name, lengths[i]]) });
  const headerBytes = Buffer.byteLength(header, 'utf8');
  let length = 1 + 4 + headerBytes;
  for (const bytes of lengths) if (bytes > 0) length += bytes;
  const record = Buffer.allocUnsafe(HEADER_BYTES + length);
  let offset = HEADER_BYTES;
  record[offset++] = RAW_FORMAT;
  record.writeUInt32LE(headerBytes, offset);
  offset += 4;
  offset += record.write(header, offset, 'utf8');
  texts.forEach(([, text], i) => {
    if (text !== null && lengths[i] > 0) offset += record.write(text, offset, lengths[i], 'utf8');
  });
  record.writeUInt32LE(length, 0);
  record.writeUInt32LE(crc32(record.subarray(HEADER_BYTES)), 4);
  return record;
}

function frame(payload: Buffer): Buffer {
  const record = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  record.writeUInt32LE(payload.length, 0);
  record.writeUInt32LE(crc32(payload), 4);
  payload.copy(record, HEADER_BYTES);
  return record;
}

/** The entry a record's (checksummed) payload holds; throws when it is not one we wrote. */
function decodePayload(payload: Buffer): JournalEntry {
  if (payload[0] !== RAW_FORMAT) return JSON.parse(payload.toString('utf8')) as JournalEntry;
  const headerBytes = payload.readUInt32LE(1);
  const header = JSON.parse(payload.toString('utf8', 5, 5 + headerBytes)) as JournalEntry & { t: [string, number][] };
  let offset = 5 + headerBytes;
  for (const [name, bytes] of header.t) {
    if (bytes < 0) {
      header.r[name] = null;
      continue;
    }
    if (offset + bytes > payload.length) throw new Error('raw text past the record');
    header.r[name] = payload.toString('utf8', offset, offset + bytes);
    offset += bytes;
  }
  return { k: header.k, r: header.r };
}

export interface DecodedSegment {
  entries: JournalEntry[];
  /** Why reading stopped before the end of the bytes: 'torn' (the last record was cut) or 'checksum' (a record's bytes do not match its CRC). */
  stoppedBy: 'torn' | 'checksum' | null;
  /** Bytes of whole, valid records (where a writer may continue). */
  validBytes: number;
}

/**
 * The valid records of one segment, in order. Reading stops at the first record that is cut short
 * (a write the process did not finish) or fails its checksum: after a bad record even the next
 * length field cannot be trusted.
 */
export function decodeSegment(bytes: Buffer): DecodedSegment {
  const entries: JournalEntry[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (bytes.length - offset < HEADER_BYTES) return { entries, stoppedBy: 'torn', validBytes: offset };
    const length = bytes.readUInt32LE(offset);
    if (length > MAX_RECORD_BYTES) return { entries, stoppedBy: 'checksum', validBytes: offset };
    if (bytes.length - offset - HEADER_BYTES < length) return { entries, stoppedBy: 'torn', validBytes: offset };
    const payload = bytes.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + length);
    if (crc32(payload) !== bytes.readUInt32LE(offset + 4))
      return { entries, stoppedBy: 'checksum', validBytes: offset };
    let entry: JournalEntry;
    try {
      entry = decodePayload(payload);
    } catch {
      return { entries, stoppedBy: 'checksum', validBytes: offset };
    }
    entries.push(entry);
    offset += HEADER_BYTES + length;
  }
  return { entries, stoppedBy: null, validBytes: offset };
}
