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
import { replayJournal } from '../../../src/server/recording/journal/journalReplay';
import { listSegments } from '../../../src/server/recording/journal/segmentFiles';

jest.setTimeout(60_000);

// The recorder with its journal on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
// what a process killed before its writes leaves is replayed once — a second replay stores nothing
// and counts nothing again — segments go once their rows are stored, and the disk budget drops
// (and counts) instead of blocking.
describe(`recording journal with the recorder (${engineName})`, () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  let dir: string;
  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('journal'));
  });
  afterAll(() => database.drop());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-journal-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const journalOn = (extra: Partial<ConstructorParameters<typeof Journal>[0]> = {}) =>
    new JournaledRows(new Journal({ dir, fsyncMs: 1000, maxBytes: 64 * 1024 * 1024, ...extra }));
  const recorderWith = (journal: JournaledRows, extra: Partial<ConstructorParameters<typeof Recorder>[2]> = {}) =>
    new Recorder(database.db, new EventBus(), { queueLimit: 10_000, flushMs: 3_600_000, journal, ...extra });
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'lookup', arguments: { q: `q${id}` } },
  });
  const result = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `r${id}` }] } });
  /** Stops a recorder as a kill would: nothing more is written, nothing closed. */
  const kill = (recorder: Recorder, journal: JournaledRows) => {
    journal.journal.commitNow();
    (recorder as unknown as { queue: { stopTimer(): void } }).queue.stopTimer();
  };
  const count = async (sql: string, params: unknown[]) => (await database.db.query<{ n: number }>(sql, params))[0].n;

  it('replays what a killed process had not written, and a second replay stores and counts nothing more', async () => {
    const journal = journalOn();
    const recorder = recorderWith(journal);
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'killed' });
    recorder.record(session, 'client_to_server', call(1), 100);
    recorder.record(session, 'server_to_client', result(1), 200);
    await recorder.flush(); // call 1 is stored (and counted in usage) before the kill
    recorder.record(session, 'client_to_server', call(2), 100);
    recorder.record(session, 'server_to_client', result(2), 200);
    recorder.record(session, 'client_to_server', call(3), 100); // answered after the kill: stays pending
    recorder.record(
      session,
      'client_to_server',
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } },
      50,
    );
    kill(recorder, journal);
    expect(await count('select count(*)::int as n from tool_calls where session_id = $1', [session.row.id])).toBe(1);

    const firstStart = new Journal({ dir, fsyncMs: 1000, maxBytes: 64 * 1024 * 1024 });
    const leftovers = firstStart.leftovers.map((l) => firstStart.readLeftover(l.id));
    const replayed = await replayJournal(database.db, leftovers);
    expect(replayed).toMatchObject({ toolCalls: 2, messages: 1, damagedSegments: 0 });
    const stored = async () => ({
      calls: await database.db.query<{ jsonrpc_id: string; status: string }>(
        'select jsonrpc_id, status from tool_calls where session_id = $1 order by jsonrpc_id',
        [session.row.id],
      ),
      messages: (await recordedMessages(database.db, session.row.id)).length,
      usage: await count('select coalesce(sum(calls), 0)::int as n from usage_minutes where server_id = $1', [
        origin.serverId,
      ]),
      // Folded or still pending (trafficFold.ts): what the analytics reads add up.
      traffic: await count(
        "select coalesce(sum(calls), 0)::int as n from (select calls, server_id, tool_name from traffic_minutes union all select calls, server_id, tool_name from traffic_pending) t where server_id = $1 and tool_name = 'lookup'",
        [origin.serverId],
      ),
    });
    const afterFirst = await stored();
    expect(afterFirst.calls).toEqual([
      { jsonrpc_id: '1', status: 'ok' },
      { jsonrpc_id: '2', status: 'ok' },
      { jsonrpc_id: '3', status: 'pending' },
    ]);
    expect(afterFirst.messages).toBe(6); // 3 requests, 2 answers, the notification
    expect(afterFirst.usage).toBe(2);
    expect(afterFirst.traffic).toBe(2);

    // The same segments again (a crash before they were deleted): nothing new.
    const again = await replayJournal(database.db, leftovers);
    expect(again).toMatchObject({ sessions: 0, toolCalls: 0, messages: 0 });
    expect(await stored()).toEqual(afterFirst);
    firstStart.discardLeftovers();
    firstStart.close();
    expect(listSegments(dir)).toEqual([]);
  });

  it('replays segment by segment as the start does: a call pending in one and settled in the next is stored once, settled', async () => {
    const journal = journalOn({ segmentBytes: 600 });
    const recorder = recorderWith(journal);
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'split' });
    recorder.record(session, 'client_to_server', call(7), 100);
    for (let i = 0; i < 6; i++)
      recorder.record(
        session,
        'client_to_server',
        { jsonrpc: '2.0', method: 'notifications/message', params: { i, pad: 'p'.repeat(200) } },
        250,
      );
    recorder.record(session, 'server_to_client', result(7), 200);
    kill(recorder, journal);
    const usageBefore = await count(
      'select coalesce(sum(calls), 0)::int as n from usage_minutes where server_id = $1',
      [origin.serverId],
    );

    for (let start = 0; start < 2; start++) {
      const restarted = new Journal({ dir, fsyncMs: 1000, maxBytes: 64 * 1024 * 1024 });
      expect(restarted.leftovers.length).toBeGreaterThan(2);
      // Each segment on its own, oldest first; the second start replays them all again.
      for (const { id } of restarted.leftovers) await replayJournal(database.db, [restarted.readLeftover(id)]);
      restarted.close();
    }
    const calls = await database.db.query<{ status: string }>('select status from tool_calls where session_id = $1', [
      session.row.id,
    ]);
    expect(calls).toEqual([{ status: 'ok' }]);
    // The settled record leaves the request's text to the pending one: the stored call has both.
    const [stored] = await database.db.query<{ request_payload: string; response_payload: string }>(
      'select request_payload, response_payload from tool_calls where session_id = $1',
      [session.row.id],
    );
    expect(JSON.parse(stored.request_payload)).toEqual(call(7));
    expect(JSON.parse(stored.response_payload)).toEqual(result(7));
    expect(await count('select count(*)::int as n from messages where session_id = $1', [session.row.id])).toBe(6);
    expect(
      await count('select coalesce(sum(calls), 0)::int as n from usage_minutes where server_id = $1', [
        origin.serverId,
      ]),
    ).toBe(usageBefore + 1);
  });

  it('deletes segments once their rows are stored, and leaves none after a clean close', async () => {
    const journal = journalOn({ segmentBytes: 2_000 });
    const recorder = recorderWith(journal);
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'segments' });
    for (let i = 1; i <= 40; i++) {
      recorder.record(session, 'client_to_server', call(i), 100);
      recorder.record(session, 'server_to_client', result(i), 200);
    }
    recorder.commitJournal();
    const before = listSegments(dir);
    expect(before.length).toBeGreaterThan(3);
    await recorder.flush();
    // Every sealed segment's rows are stored: only the segment being written remains.
    expect(listSegments(dir)).toEqual([before.at(-1)]);
    await recorder.close();
    expect(listSegments(dir)).toEqual([]);
    expect(await count('select count(*)::int as n from tool_calls where session_id = $1', [session.row.id])).toBe(40);
  });

  it('drops and counts rows past the disk budget, and keeps recording once segments are freed', async () => {
    const journal = journalOn({ maxBytes: 4_000, segmentBytes: 1_000 });
    const recorder = recorderWith(journal);
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'budget' });
    for (let i = 0; i < 60; i++)
      recorder.record(
        session,
        'client_to_server',
        { jsonrpc: '2.0', method: 'notifications/message', params: { i, text: 'x'.repeat(100) } },
        150,
      );
    const full = recorder.stats();
    expect(full.dropped.messages).toBeGreaterThan(0);
    expect(full.journal.overBudget).toBe(full.dropped.messages);
    expect(full.behind.journalBytes).toBeGreaterThanOrEqual(4_000);
    await recorder.flush();
    expect(recorder.stats().behind.journalBytes).toBeLessThan(4_000);
    recorder.record(
      session,
      'client_to_server',
      { jsonrpc: '2.0', method: 'notifications/message', params: { after: true } },
      50,
    );
    expect(recorder.stats().dropped.messages).toBe(full.dropped.messages);
    await recorder.close();
    const stored = await count('select count(*)::int as n from messages where session_id = $1', [session.row.id]);
    expect(stored).toBe(61 - full.dropped.messages);
  });
});
