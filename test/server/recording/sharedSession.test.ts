import type { TestDatabase } from '../helpers/testDatabase';
import { engineName } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { recordedMessages } from '../helpers/recordedRows';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import { recountSessions } from '../../../src/server/recording/sessionRecount';

jest.setTimeout(60_000);

// One MCP session recorded by two instances (docs/proxy.md "Any instance serves any session"):
// both write the same session row, which is merged — the end one wrote stays, counts never go
// down — their messages interleave by the session's clock, and the recount after the end makes
// the counts those of the stored rows.
describe(`a session shared by two recorders (${engineName})`, () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('shared'));
  });
  afterAll(() => database.drop());

  let clock = Date.parse('2026-11-25T10:00:00Z');
  const now = () => clock;
  const make = () => new Recorder(database.db, new EventBus(), { queueLimit: 1000, flushMs: 3_600_000, now });
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { n: id } } });
  const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } });

  it('merges the row, keeps the end, orders messages by the clock and recounts after the end', async () => {
    const a = make();
    const b = make();
    const started = a.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'upstream-1', clientName: 'agent', clientVersion: '1' });
    a.shareAcrossInstances(started);
    const startedAtMs = Date.parse(started.row.started_at);
    a.record(started, 'client_to_server', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, 50);
    a.record(started, 'server_to_client', { jsonrpc: '2.0', id: 0, result: {} }, 50);
    await a.flush();

    const adopted = b.adoptSession(origin, started.row.id, startedAtMs, { transport: 'streamable-http', mcpSessionId: 'upstream-1' });
    for (let i = 1; i <= 4; i++) {
      clock += 10;
      const [recorder, session] = i % 2 === 0 ? [a, started] : [b, adopted];
      recorder.record(session, 'client_to_server', call(i), 80);
      clock += 1;
      recorder.record(session, 'server_to_client', answer(i), 40);
    }
    b.endSession(adopted); // the DELETE reached B
    await b.flush();
    await a.flush(); // A still holds the session as active, with its own counts
    const row = async () => (await database.db.query<{ status: string; client_name: string; call_count: number; message_count: number }>('select status, client_name, call_count, message_count from sessions where id = $1', [started.row.id]))[0]!;
    const merged = await row();
    expect(merged).toMatchObject({ status: 'ended', client_name: 'agent' });
    expect(merged.call_count).toBe(2); // the larger of the two instances' views, until the recount

    await recountSessions(database.db, [started.row.id]);
    expect(await row()).toMatchObject({ status: 'ended', call_count: 4, message_count: 10 });
    const replay = await recordedMessages(database.db, started.row.id);
    expect(replay.map((m) => (m.payload as { id?: number }).id)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    await a.close();
    await b.close();
  });
});
