import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestDatabase } from '../helpers/testDatabase';
import { engineName } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { recordedMessages } from '../helpers/recordedRows';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import { Journal } from '../../../src/server/recording/journal/journal';
import { JournaledRows } from '../../../src/server/recording/journal/journaledRows';
import { HEADER_BYTES, type JournalEntry } from '../../../src/server/recording/journal/recordCodec';
import { replayJournal } from '../../../src/server/recording/journal/journalReplay';
import { listSegments, segmentPath } from '../../../src/server/recording/journal/segmentFiles';

jest.setTimeout(60_000);

/**
 * A journal writing the recorder's rows as versions before issue 39 did: sessions and counts as
 * JSON (format 0), messages and calls as a JSON header with their texts raw (format 1), a settled
 * call without the request text its pending record holds.
 */
class JournalAsBefore extends Journal {
  override appendRow(kind: JournalEntry['k'], row: object, omit?: ReadonlySet<string>): number {
    const fields = Object.entries(row).filter(([name]) => !omit?.has(name));
    const textNames = kind === 'm' ? ['payload'] : kind === 'c' ? ['request_payload', 'response_payload'] : [];
    const r = Object.fromEntries(fields.filter(([name]) => !textNames.includes(name)));
    const texts = fields.filter(([name]) => textNames.includes(name)).map(([n, v]) => [n, v as string | null] as const);
    return texts.length === 0 ? this.append({ k: kind, r }) : this.append({ k: kind, r }, texts);
  }
}

// An upgrade: segments a process of the previous version left (killed before its writes) are
// replayed by this version as they were — the format of the records on disk changed (binary rows,
// recordCodec.ts), the reader still takes the old ones.
describe(`recording journal: segments of the previous format (${engineName})`, () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  let dir: string;
  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('journal-old'));
  });
  afterAll(() => database.drop());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-journal-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'lookup',
      arguments: { q: `q${id} "ü😀"` },
      _meta: { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` },
    },
  });
  const result = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `r${id}` }] } });
  const count = async (sql: string, params: unknown[]) => (await database.db.query<{ n: number }>(sql, params))[0].n;

  /** Records a session's traffic with the journal `journal`, then stops as a kill would; returns the session's id. */
  async function recordAndKill(journal: Journal, mcpSessionId: string): Promise<string> {
    const rows = new JournaledRows(journal);
    const recorder = new Recorder(database.db, new EventBus(), {
      queueLimit: 10_000,
      flushMs: 3_600_000,
      journal: rows,
    });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId });
    recorder.record(session, 'client_to_server', call(1), 100);
    recorder.record(session, 'server_to_client', result(1), 200);
    await recorder.flush(); // call 1 is stored before the kill
    recorder.record(session, 'client_to_server', call(2), 100);
    recorder.record(
      session,
      'server_to_client',
      { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'nope' } },
      90,
    );
    recorder.record(session, 'client_to_server', call(3), 100); // never answered: stays pending
    recorder.record(
      session,
      'client_to_server',
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } },
      50,
    );
    journal.commitNow();
    (recorder as unknown as { queue: { stopTimer(): void } }).queue.stopTimer();
    return session.row.id;
  }

  /** What the database holds of the session, without what differs between two sessions (ids, times). */
  async function stored(sessionId: string) {
    const calls = await database.db.query(
      `select jsonrpc_id, tool_name, status, error_message, request_seq, response_seq, response_kind, request_payload,
         response_payload, request_bytes, response_bytes, tokens_estimate, meta, traceparent, duration_ms is not null as timed
       from tool_calls where session_id = $1 order by jsonrpc_id`,
      [sessionId],
    );
    const [session] = await database.db.query(
      'select status, message_count, call_count, error_count, mcp_session_id is not null as named from sessions where id = $1',
      [sessionId],
    );
    const messages = (await recordedMessages(database.db, sessionId)).map(({ created_at: _, ...message }) => message);
    return { calls, session, messages };
  }

  /** Replays the folder's segments as a start does (each on its own, oldest first), then empties it. */
  async function replayAll(): Promise<void> {
    const restarted = new Journal({ dir, fsyncMs: 1000, maxBytes: 64 * 1024 * 1024 });
    for (const { id } of restarted.leftovers) {
      const segment = restarted.readLeftover(id);
      expect(segment.stoppedBy).toBeNull();
      await replayJournal(database.db, [segment]);
      restarted.discardLeftover(id);
    }
    restarted.close();
    expect(listSegments(dir)).toEqual([]);
  }

  it('replays a segment of the previous format as this version replays its own: the same rows stored', async () => {
    const before = await recordAndKill(new JournalAsBefore({ dir, fsyncMs: 1000, maxBytes: 64 * 1024 * 1024 }), 'old');
    const bytes = fs.readFileSync(segmentPath(dir, 1));
    const formats = new Set<number>();
    for (let at = 0; at < bytes.length; at += HEADER_BYTES + bytes.readUInt32LE(at))
      formats.add(bytes[at + HEADER_BYTES]);
    expect([...formats].sort()).toEqual([0x01, '{'.charCodeAt(0)]); // the old formats only
    await replayAll();

    const now = await recordAndKill(new Journal({ dir, fsyncMs: 1000, maxBytes: 64 * 1024 * 1024 }), 'new');
    await replayAll();

    const old = await stored(before);
    expect(old.calls.map((c) => [c.jsonrpc_id, c.status])).toEqual([
      ['1', 'ok'],
      ['2', 'error'],
      ['3', 'pending'],
    ]);
    expect(old.session).toMatchObject({ message_count: 6, call_count: 3, error_count: 1 });
    expect(old.messages).toHaveLength(6);
    expect(JSON.parse(old.calls[1].request_payload as string)).toEqual(call(2));
    expect(await stored(now)).toEqual(old);
    expect(
      await count('select count(*)::int as n from tool_calls where session_id = any($1::uuid[])', [[before, now]]),
    ).toBe(6);
  });
});
