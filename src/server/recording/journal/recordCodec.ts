import { crc32 } from 'node:zlib';
import { readFields, writeFields, type FieldSink } from './rowFields';

// One journal record on disk: [payload length: u32 LE][CRC-32 of the payload: u32 LE][payload].
// Length-prefixed so a reader finds the next record without scanning; checksummed so a torn or
// overwritten record is recognised, never replayed. The payload is either
// - the UTF-8 JSON of one JournalEntry (it starts with '{'), or
// - RAW_FORMAT, then [header length: u32 LE][header: UTF-8 JSON][raw texts, one after another]:
//   the entry without its long texts (message payloads as they crossed the wire), and the texts
//   themselves as bytes. The header's `t` names them with their byte lengths, in order. A payload
//   that is itself JSON would otherwise be escaped into the entry's JSON (every quote twice) and
//   parsed back; as bytes it costs a copy.
// - ROW_FORMAT, then [kind: one ASCII byte][the row's fields in binary, rowFields.ts]: what the
//   recorder writes since issue 39 (no JSON at all). The first two stay readable: a segment left
//   by a process of an earlier version is replayed by the next one.

export const HEADER_BYTES = 8;
/** A record longer than this is not one we wrote: its length field is garbage. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;
const RAW_FORMAT = 0x01;
const ROW_FORMAT = 0x02;

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

/** Bytes a group buffer starts with and shrinks back to: a turn's records at the bench's pace fit. */
const GROUP_START_BYTES = 64 * 1024;
/** A group larger than this (a burst, a long payload) is not kept for the next one. */
const GROUP_KEPT_BYTES = 1024 * 1024;

/**
 * The records of one group write, encoded one after another into one buffer that the next group
 * reuses — not a Buffer per record concatenated into another at the write (the journal's encoding
 * was the recording path's second largest allocation: docs/benchmarks.md, issue 39). Its bytes are
 * valid until reset(), which the writer calls once the group's synchronous write has returned.
 */
export class RecordGroup implements FieldSink {
  bytes = Buffer.allocUnsafeSlow(GROUP_START_BYTES);
  /** Bytes of whole records so far. */
  length = 0;

  /**
   * Appends the record of `entry` in format 0 or 1 (JSON), whose row also holds `texts` (written as
   * raw bytes); returns its length. The recorder writes appendRow's format; this one is what
   * earlier versions wrote (the tests make such segments with it).
   */
  append(entry: JournalEntry, texts?: RawTexts): number {
    return texts ? this.appendRaw(entry, texts) : this.appendJson(JSON.stringify(entry));
  }

  /** Appends the record of `row` (its fields but `omit`) in ROW_FORMAT; returns its length. */
  appendRow(kind: JournalEntry['k'], row: object, omit?: ReadonlySet<string>): number {
    const start = this.reserve(HEADER_BYTES + 2);
    const bytes = this.bytes;
    bytes[start + HEADER_BYTES] = ROW_FORMAT;
    bytes[start + HEADER_BYTES + 1] = kind.charCodeAt(0);
    const end = writeFields(this, start + HEADER_BYTES + 2, row, omit);
    return this.seal(start, end - start - HEADER_BYTES);
  }

  /** The buffer with room for `bytes` more at `at`, within the record being appended (see FieldSink). */
  room(at: number, bytes: number): Buffer {
    if (at + bytes > this.bytes.length) this.grow(at, at + bytes);
    return this.bytes;
  }

  reset(): void {
    this.length = 0;
    if (this.bytes.length > GROUP_KEPT_BYTES) this.bytes = Buffer.allocUnsafeSlow(GROUP_START_BYTES);
  }

  private appendJson(json: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: room is reserved before, the exact length written after.
    const start = this.reserve(HEADER_BYTES + 3 * json.length);
    const payloadBytes = this.bytes.write(json, start + HEADER_BYTES, 'utf8');
    return this.seal(start, payloadBytes);
  }

  private appendRaw(entry: JournalEntry, texts: RawTexts): number {
    let textBytes = 0;
    const names: [string, number][] = [];
    for (const [name, text] of texts) {
      const bytes = text === null ? -1 : Buffer.byteLength(text, 'utf8');
      names.push([name, bytes]);
      if (bytes > 0) textBytes += bytes;
    }
    const header = JSON.stringify({ k: entry.k, r: entry.r, t: names });
    const start = this.reserve(HEADER_BYTES + 1 + 4 + 3 * header.length + textBytes);
    const bytes = this.bytes;
    let offset = start + HEADER_BYTES;
    bytes[offset] = RAW_FORMAT;
    const headerBytes = bytes.write(header, offset + 5, 'utf8');
    bytes.writeUInt32LE(headerBytes, offset + 1);
    offset += 5 + headerBytes;
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i][1];
      const length = names[i][1];
      if (text !== null && length > 0) offset += bytes.write(text, offset, length, 'utf8');
    }
    return this.seal(start, offset - start - HEADER_BYTES);
  }

  /** Where a record of at most `most` bytes begins, with the room for it. */
  private reserve(most: number): number {
    const needed = this.length + most;
    if (needed > this.bytes.length) this.grow(this.length, needed);
    return this.length;
  }

  /** A larger buffer, with the first `kept` bytes of this one. */
  private grow(kept: number, needed: number): void {
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, 2 * this.bytes.length));
    this.bytes.copy(grown, 0, 0, kept);
    this.bytes = grown;
  }

  /** The record at `start` with a payload of `payloadBytes`: its length and checksum written, the record counted. */
  private seal(start: number, payloadBytes: number): number {
    const bytes = this.bytes;
    bytes.writeUInt32LE(payloadBytes, start);
    const end = start + HEADER_BYTES + payloadBytes;
    bytes.writeUInt32LE(crc32(bytes.subarray(start + HEADER_BYTES, end)), start + 4);
    this.length = end;
    return end - start;
  }
}

/** The entry a record's (checksummed) payload holds; throws when it is not one we wrote. */
function decodePayload(payload: Buffer): JournalEntry {
  if (payload[0] === ROW_FORMAT) {
    if (payload.length < 2) throw new Error('record without its kind');
    return { k: String.fromCharCode(payload[1]) as JournalEntry['k'], r: readFields(payload, 2) };
  }
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
