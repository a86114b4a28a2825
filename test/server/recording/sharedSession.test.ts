import type { TestDatabase } from '../helpers/testDatabase';
import { engineName } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { recordedMessages } from '../helpers/recordedRows';
import { EventBus } from '../../../src/server/events/bus';
import type { LiveMessage } from '../../../src/contract/live';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import { writeBatch } from '../../../src/server/recording/batchWriter';

jest.setTimeout(60_000);

// One MCP session recorded by two instances (docs/proxy.md "Any instance serves any session"):
// both write the same session row, which is merged — the end one wrote stays — their messages
// interleave by the session's clock, and its counts are the sum of what each saw (issue 32: the
// row kept the larger of the two, about half), while active and after the end.
describe(`a session shared by two recorders (${engineName})`, () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('shared'));
  });
  afterAll(() => database.drop());

  let clock = Date.parse('2026-11-25T10:00:00Z');
  const now = () => clock;
  const make = (bus = new EventBus()) => new Recorder(database.db, bus, { queueLimit: 1000, flushMs: 3_600_000, now });
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { n: id } },
  });
  const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } });

  const row = async (id: string) =>
    (
      await database.db.query<{
        status: string;
        client_name: string;
        call_count: number;
        message_count: number;
        error_count: number;
      }>('select status, client_name, call_count, message_count, error_count from sessions where id = $1', [id])
    )[0];

  it('merges the row, keeps the end, orders messages by the clock and adds the counts of both', async () => {
    const a = make();
    const busOfB = new EventBus();
    const b = make(busOfB);
    const eventsOfB: LiveMessage[] = [];
    busOfB.subscribeAll((_, message) => eventsOfB.push(message));
    const started = a.startSession(origin, {
      transport: 'streamable-http',
      mcpSessionId: 'upstream-1',
      clientName: 'agent',
      clientVersion: '1',
    });
    a.shareAcrossInstances(started);
    const startedAtMs = Date.parse(started.row.started_at);
    a.record(started, 'client_to_server', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, 50);
    a.record(started, 'server_to_client', { jsonrpc: '2.0', id: 0, result: {} }, 50);
    await a.flush();

    const adopted = b.adoptSession(origin, started.row.id, startedAtMs, {
      transport: 'streamable-http',
      mcpSessionId: 'upstream-1',
    });
    for (let i = 1; i <= 4; i++) {
      clock += 10;
      const [recorder, session] = i % 2 === 0 ? [a, started] : [b, adopted];
      recorder.record(session, 'client_to_server', call(i), 80);
      clock += 1;
      recorder.record(
        session,
        'server_to_client',
        i === 4 ? { jsonrpc: '2.0', id: i, error: { code: -1, message: 'no' } } : answer(i),
        40,
      );
    }
    await a.flush();
    await b.flush();
    // While active: both parts are in the row, whichever wrote last.
    expect(await row(started.row.id)).toMatchObject({
      status: 'active',
      call_count: 4,
      message_count: 10,
      error_count: 1,
    });

    b.endSession(adopted); // the DELETE reached B
    await b.flush();
    // The live end B announces carries the session's counts, not B's part (2 calls, 4 messages).
    const ended = eventsOfB.find((event) => event.type === 'session_ended');
    expect(ended?.data).toMatchObject({ callCount: 4, messageCount: 10, errorCount: 1 });
    await a.flush(); // A still holds the session as active, with its own counts
    const merged = await row(started.row.id);
    expect(merged).toMatchObject({
      status: 'ended',
      client_name: 'agent',
      call_count: 4,
      message_count: 10,
      error_count: 1,
    });

    // A part written again (a retried batch, a journal replay of what was stored) adds nothing.
    await writeBatch(database.db, { sessions: [{ ...adopted.row }], messages: [], toolCalls: [], usage: [] });
    expect(await row(started.row.id)).toMatchObject({ call_count: 4, message_count: 10, error_count: 1 });
    const replay = await recordedMessages(database.db, started.row.id);
    expect(replay.map((m) => (m.payload as { id?: number }).id)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    await a.close();
    await b.close();
  });
});
