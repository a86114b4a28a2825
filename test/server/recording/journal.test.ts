import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../../../src/server/recording/journal/journal';
import { HEADER_BYTES } from '../../../src/server/recording/journal/recordCodec';
import { listSegments, segmentPath } from '../../../src/server/recording/journal/segmentFiles';
import { watchFileSyncs } from '../helpers/fileSyncs';

// The journal's file format and lifecycle on its own (no database): what a reader makes of a cut
// or corrupted segment, when segments are deleted, and the disk budget.
describe('recording journal', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-journal-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const open = (extra: Partial<ConstructorParameters<typeof Journal>[0]> = {}) =>
    new Journal({ dir, fsyncMs: 0, maxBytes: 64 * 1024 * 1024, ...extra });
  const entry = (n: number) => ({ k: 'm' as const, r: { seq: n, payload: `{"n":${n}}` } });

  /** A journal left as a killed process leaves it: appended and written, never closed. */
  function crashWith(count: number): string {
    const journal = open({ fsyncMs: 1000 });
    for (let i = 1; i <= count; i++) journal.append(entry(i));
    journal.commitNow();
    return segmentPath(dir, 1);
  }

  it('reads every whole record of a segment a killed process left', () => {
    crashWith(3);
    const reopened = open();
    expect(reopened.leftovers).toHaveLength(1);
    expect(reopened.readLeftover(1)).toMatchObject({ id: 1, stoppedBy: null });
    expect(reopened.readLeftover(1).entries.map((e) => e.r.seq)).toEqual([1, 2, 3]);
    reopened.close();
  });

  it('stops at a torn last record and keeps the ones before it', () => {
    const file = crashWith(3);
    fs.truncateSync(file, fs.statSync(file).size - 5);
    const reopened = open();
    expect(reopened.readLeftover(1).stoppedBy).toBe('torn');
    expect(reopened.readLeftover(1).entries.map((e) => e.r.seq)).toEqual([1, 2]);
    reopened.close();
  });

  it('stops at a record whose checksum does not match, and trusts nothing after it', () => {
    const file = crashWith(3);
    const bytes = fs.readFileSync(file);
    const firstLength = bytes.readUInt32LE(0);
    const secondPayload = HEADER_BYTES + firstLength + HEADER_BYTES;
    bytes[secondPayload + 2] ^= 0x01; // one bit of record 2's payload
    fs.writeFileSync(file, bytes);
    const reopened = open();
    expect(reopened.readLeftover(1).stoppedBy).toBe('checksum');
    expect(reopened.readLeftover(1).entries.map((e) => e.r.seq)).toEqual([1]);
    reopened.close();
  });

  it('keeps long texts as the bytes they were (quotes, escapes, emoji, NUL) and still finds a flipped bit among them', () => {
    const text = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'say "hi" \\ 😀 ünïcode \u0000 '.repeat(20) }] },
    });
    const journal = open({ fsyncMs: 1000 });
    journal.append({ k: 'c', r: { id: 'a', status: 'ok', duration_ms: 3 } }, [
      ['request_payload', `{"q":"${'x'.repeat(200)}"}`],
      ['response_payload', text],
      ['error_message', null],
    ]);
    journal.append({ k: 'c', r: { id: 'b', status: 'ok' } }, [['response_payload', text]]);
    journal.commitNow();
    const reopened = open();
    const [first, second] = reopened.readLeftover(1).entries;
    expect(first).toEqual({
      k: 'c',
      r: {
        id: 'a',
        status: 'ok',
        response_payload: text,
        request_payload: `{"q":"${'x'.repeat(200)}"}`,
        duration_ms: 3,
        error_message: null,
      },
    });
    expect(second.r.response_payload).toBe(text);
    reopened.close();

    const file = segmentPath(dir, 1);
    const bytes = fs.readFileSync(file);
    const firstLength = bytes.readUInt32LE(0);
    bytes[HEADER_BYTES + firstLength + HEADER_BYTES + 300] ^= 0x04; // inside record 2's raw text
    fs.writeFileSync(file, bytes);
    const damaged = open();
    expect(damaged.readLeftover(1).stoppedBy).toBe('checksum');
    expect(damaged.readLeftover(1).entries.map((e) => e.r.id)).toEqual(['a']);
    damaged.close();
  });

  it('writes groups one after another from one reused buffer: a record larger than it, then small ones, all read back whole', () => {
    // The group buffer starts at 64 KiB, grows for a long payload and is given up past 1 MiB: the
    // records of every group, before and after, must come back byte for byte.
    const long = `{"text":"${'é😀x'.repeat(400_000)}"}`;
    const journal = open({ fsyncMs: 1000 });
    journal.append(entry(1));
    journal.commitNow();
    journal.append({ k: 'c', r: { id: 'big' } }, [['response_payload', long]]);
    journal.append(entry(2));
    journal.commitNow();
    journal.append(entry(3), [['payload', 'ünïcode']]);
    journal.append(entry(4));
    journal.commitNow();
    const reopened = open();
    const entries = reopened.readLeftover(1).entries;
    expect(entries.map((e) => e.r.seq ?? e.r.id)).toEqual([1, 'big', 2, 3, 4]);
    expect(entries[1].r.response_payload).toBe(long);
    expect(entries[3].r.payload).toBe('ünïcode');
    expect(entries[4]).toEqual(entry(4));
    reopened.close();
  });

  it('deletes a sealed segment once every record in it is released, and a clean close leaves no file', () => {
    const journal = open({ segmentBytes: 200 });
    const segments = Array.from({ length: 12 }, (_, i) => journal.append(entry(i)));
    journal.commitNow();
    const used = [...new Set(segments)];
    expect(used.length).toBeGreaterThan(2);
    expect(listSegments(dir)).toEqual(used);
    // Release every record of the first segment but one: it stays.
    const first = used[0];
    const inFirst = segments.filter((s) => s === first).length;
    journal.release(first, inFirst - 1);
    expect(listSegments(dir)).toContain(first);
    journal.release(first, 1);
    expect(listSegments(dir)).not.toContain(first);
    for (const id of used.slice(1)) journal.release(id, segments.filter((s) => s === id).length);
    journal.close();
    expect(listSegments(dir)).toEqual([]);
  });

  it('keeps the segments whose records are not released at close, for the next start', () => {
    const journal = open();
    journal.append(entry(1));
    journal.close();
    expect(listSegments(dir)).toEqual([1]);
    const next = open();
    expect(next.leftovers.map((l) => next.readLeftover(l.id).entries.length)).toEqual([1]);
    next.discardLeftovers();
    next.close();
    expect(listSegments(dir)).toEqual([]);
  });

  it('says when the disk budget is spent, and has room again once segments are deleted', () => {
    const journal = open({ maxBytes: 1_000, segmentBytes: 300 });
    const segments: number[] = [];
    while (journal.hasRoom()) segments.push(journal.append(entry(segments.length)));
    journal.commitNow();
    expect(journal.stats().bytes).toBeGreaterThanOrEqual(1_000);
    // Rotating past the first segment and releasing it gives its bytes back.
    journal.append(entry(99));
    const first = segments[0];
    journal.release(first, segments.filter((s) => s === first).length);
    expect(journal.hasRoom()).toBe(true);
    journal.close();
  });

  // fsync of a new file does not make the directory entry naming it durable (fsync(2)): without
  // the folder's own sync a machine crash could drop a whole segment whose records were synced.
  describe('the folder, synced after a segment is created', () => {
    afterEach(() => jest.restoreAllMocks());

    /** The syncs of the journal's folder so far. */
    function watchFolderSyncs(): { count(): number } {
      const events = watchFileSyncs();
      return { count: () => events.filter((event) => event === `sync ${dir}`).length };
    }

    it('with every write synced: at the first write, and again after each new segment', () => {
      const synced = watchFolderSyncs();
      const journal = open({ segmentBytes: 200 });
      journal.append(entry(1));
      journal.commitNow();
      expect(synced.count()).toBe(1);
      journal.commitNow();
      expect(synced.count()).toBe(1); // nothing new in the folder
      const segments = Array.from({ length: 6 }, (_, i) => journal.append(entry(i + 2)));
      journal.commitNow();
      expect(new Set(segments).size).toBeGreaterThan(1);
      expect(synced.count()).toBeGreaterThanOrEqual(2);
      journal.close();
    });

    it('on an interval: within the interval, off the event loop', async () => {
      const synced = watchFolderSyncs();
      const journal = open({ fsyncMs: 20 });
      journal.append(entry(1));
      journal.commitNow();
      for (let turn = 0; synced.count() === 0 && turn < 500; turn++) await new Promise((r) => setTimeout(r, 20));
      expect(synced.count()).toBe(1);
      journal.close();
    });
  });

  it('refuses a folder another live process holds', () => {
    fs.writeFileSync(path.join(dir, 'lock'), String(process.ppid));
    expect(() => open()).toThrow(/in use by process/);
  });
});
