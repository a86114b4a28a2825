import { crc32 } from 'node:zlib';

// One journal record on disk: [payload length: u32 LE][CRC-32 of the payload: u32 LE][payload].
// The payload is the UTF-8 JSON of one JournalEntry. Length-prefixed so a reader finds the next
// record without scanning; checksummed so a torn or overwritten record is recognised, never replayed.

export const HEADER_BYTES = 8;
/** A record longer than this is not one we wrote: its length field is garbage. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** What a record holds: a row the recorder queued, in the shape the write queue holds it. */
export interface JournalEntry {
  /** s: a session row snapshot, m: a message row, c: a tool call row snapshot (pending or settled). */
  k: 's' | 'm' | 'c';
  r: Record<string, unknown>;
}

export function encodeRecord(entry: JournalEntry): Buffer {
  const payload = Buffer.from(JSON.stringify(entry), 'utf8');
  const record = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  record.writeUInt32LE(payload.length, 0);
  record.writeUInt32LE(crc32(payload), 4);
  payload.copy(record, HEADER_BYTES);
  return record;
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
    if (crc32(payload) !== bytes.readUInt32LE(offset + 4)) return { entries, stoppedBy: 'checksum', validBytes: offset };
    let entry: JournalEntry;
    try {
      entry = JSON.parse(payload.toString('utf8')) as JournalEntry;
    } catch {
      return { entries, stoppedBy: 'checksum', validBytes: offset };
    }
    entries.push(entry);
    offset += HEADER_BYTES + length;
  }
  return { entries, stoppedBy: null, validBytes: offset };
}
