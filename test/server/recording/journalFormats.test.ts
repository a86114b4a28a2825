import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../../../src/server/recording/journal/journal';
import { HEADER_BYTES, RecordGroup, decodeSegment } from '../../../src/server/recording/journal/recordCodec';
import { segmentPath } from '../../../src/server/recording/journal/segmentFiles';

// The journal's record formats side by side: the recorder writes its rows in the binary row format
// (2) since issue 39; a segment a previous version left holds formats 0 (JSON) and 1 (JSON header,
// raw texts), and the reader keeps reading all three. A row must read back from format 2 exactly
// as it read back from the JSON of formats 0 and 1, for every kind of value a row holds.
describe('recording journal record formats', () => {
  /** A row with every kind of value a journaled row may hold. */
  const row = () => ({
    id: '6f1c2d3e-0000-4000-8000-000000000001',
    status: 'ok',
    duration_ms: 3,
    request_bytes: 0,
    negative: -17,
    large: 2 ** 40 + 1,
    fraction: 0.25,
    not_a_number: Number.NaN,
    infinite: Number.POSITIVE_INFINITY,
    minus_zero: -0,
    left_out: undefined,
    error_message: null,
    request_truncated: false,
    response_truncated: true,
    meta: { traceparent: '00-abc-def-01', nested: [1, 'two', { three: null }] },
    tool_name: 'say "hi" \\ 😀 ünïcode \u0000',
    response_payload: `{"text":"${'é😀x'.repeat(300)}"}`,
    empty: '',
    a_field_no_version_knew: 'kept by its name',
    arguments: { q: 'left out' },
    result: { content: [] },
  });
  const omitted = new Set(['arguments', 'result']);
  /** What formats 0 and 1 gave back: the row's JSON, parsed. */
  const asJson = (value: object) => {
    const kept = Object.entries(value).filter(([name]) => !omitted.has(name));
    return JSON.parse(JSON.stringify(Object.fromEntries(kept))) as Record<string, unknown>;
  };

  it('reads a row back from the row format as it read back from JSON', () => {
    const group = new RecordGroup();
    group.appendRow('c', row(), omitted);
    group.appendRow('n', { id: 'x', recorder_id: undefined, message_count: 5, call_count: 2, error_count: 0 });
    const decoded = decodeSegment(group.bytes.subarray(0, group.length));
    expect(decoded.stoppedBy).toBeNull();
    expect(decoded.entries[0]).toEqual({ k: 'c', r: asJson(row()) });
    expect(Object.is(decoded.entries[0].r.minus_zero, 0)).toBe(true);
    // A lone surrogate is UTF-8's U+FFFD, as the database's text stores it (JSON kept the escape).
    group.appendRow('c', { id: 'y', tool_name: 'cut \ud83d' });
    expect(decodeSegment(group.bytes.subarray(0, group.length)).entries[2].r).toEqual({
      id: 'y',
      tool_name: 'cut \ufffd',
    });
    expect(decoded.entries[1]).toEqual({ k: 'n', r: { id: 'x', message_count: 5, call_count: 2, error_count: 0 } });
  });

  it('reads records of all three formats from one segment, in order, as the rows they were', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-journal-'));
    try {
      const journal = new Journal({ dir, fsyncMs: 1000, maxBytes: 64 * 1024 * 1024 });
      const { response_payload, ...rest } = asJson(row());
      journal.append({ k: 's', r: { id: 's1', message_count: 1 } }); // format 0
      journal.append({ k: 'c', r: rest }, [['response_payload', response_payload as string]]); // format 1
      journal.appendRow('c', row(), omitted); // format 2
      journal.commitNow();
      const bytes = fs.readFileSync(segmentPath(dir, 1));
      const formats: number[] = [];
      for (let at = 0; at < bytes.length; at += HEADER_BYTES + bytes.readUInt32LE(at))
        formats.push(bytes[at + HEADER_BYTES]);
      expect(formats).toEqual(['{'.charCodeAt(0), 0x01, 0x02]);
      const reopened = new Journal({ dir, fsyncMs: 1000, maxBytes: 64 * 1024 * 1024 });
      const { entries, stoppedBy } = reopened.readLeftover(1);
      expect(stoppedBy).toBeNull();
      expect(entries).toEqual([
        { k: 's', r: { id: 's1', message_count: 1 } },
        { k: 'c', r: asJson(row()) },
        { k: 'c', r: asJson(row()) },
      ]);
      reopened.discardLeftovers();
      reopened.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('grows the group buffer inside a row record, and stops at a flipped bit of a row record', () => {
    const group = new RecordGroup();
    const long = `{"text":"${'é😀x'.repeat(40_000)}"}`; // larger than the group's starting buffer
    group.appendRow('m', { seq: 1, payload: 'small' });
    group.appendRow('m', { seq: 2, payload: long });
    group.appendRow('m', { seq: 3, payload: 'after' });
    const bytes = Buffer.from(group.bytes.subarray(0, group.length));
    expect(decodeSegment(bytes).entries.map((e) => e.r)).toEqual([
      { seq: 1, payload: 'small' },
      { seq: 2, payload: long },
      { seq: 3, payload: 'after' },
    ]);
    const first = HEADER_BYTES + bytes.readUInt32LE(0);
    bytes[first + HEADER_BYTES + 500] ^= 0x04; // inside record 2's text
    const damaged = decodeSegment(bytes);
    expect(damaged.stoppedBy).toBe('checksum');
    expect(damaged.entries.map((e) => e.r.seq)).toEqual([1]);
  });
});
