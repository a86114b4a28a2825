import type { TestDatabase } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import { ORPHANED_CALL_MESSAGE } from '../../../src/server/recording/orphanSweep';

jest.setTimeout(60_000);

// An instance killed without a graceful shutdown leaves its sessions active and its waiting calls
// pending in the database. Another instance (or this one, restarted) ends them once they are well
// past the longest idle limit — and never a session some instance still proxies.
describe('sessions left behind by an instance that stopped without shutting down', () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  const t0 = Date.parse('2026-11-21T08:00:00Z');
  const minutes = (n: number) => n * 60_000;

  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('orphans'));
  });
  afterAll(() => database.drop());

  const recorderAt = (clock: { now: number }) =>
    new Recorder(database.db, new EventBus(), {
      queueLimit: 1000,
      flushMs: 60_000,
      statefulIdleMs: minutes(30),
      inferredIdleGapMs: minutes(5),
      now: () => clock.now,
    });
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: {} } });
  const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } });

  it('ends them as of their last activity and settles their waiting calls as errors', async () => {
    // The instance that is later killed: one old session with an answered and a waiting call, one recent session.
    const crashedClock = { now: t0 };
    const crashed = recorderAt(crashedClock);
    const old = crashed.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'old' });
    crashed.record(old, 'client_to_server', call(1), 80);
    crashed.record(old, 'server_to_client', answer(1), 80);
    crashed.record(old, 'client_to_server', call(2), 80);
    crashedClock.now = t0 + minutes(31);
    const recent = crashed.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'recent' });
    crashed.record(recent, 'client_to_server', call(3), 80);
    await crashed.flush(); // …and then the process dies: no close().

    // A live instance still proxying a session whose stored activity is just as old.
    const liveClock = { now: t0 };
    const live = recorderAt(liveClock);
    const kept = live.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'kept' });
    live.record(kept, 'client_to_server', call(4), 80);
    await live.flush();

    liveClock.now = t0 + minutes(40); // cutoff = 40 − 30 (idle limit) − 5 (margin) = 5 min after t0
    expect(await live.sweepOrphans()).toEqual({ sessions: 1, calls: 1 });

    const sessions = await database.db.query<{
      mcp_session_id: string;
      status: string;
      ended_at: Date | string | null;
      last_activity_at: Date | string;
      error_count: number;
    }>(
      'select mcp_session_id, status, ended_at, last_activity_at, error_count from sessions where server_id = $1 order by mcp_session_id',
      [origin.serverId],
    );
    const byId = Object.fromEntries(sessions.map((s) => [s.mcp_session_id, s]));
    expect(byId.old).toMatchObject({ status: 'ended', error_count: 1 });
    expect(new Date(byId.old.ended_at!).getTime()).toBe(new Date(byId.old.last_activity_at).getTime());
    expect(byId.recent).toMatchObject({ status: 'active', ended_at: null });
    expect(byId.kept).toMatchObject({ status: 'active', ended_at: null });

    const calls = await database.db.query<{ jsonrpc_id: string; status: string; error_message: string | null }>(
      'select jsonrpc_id, status, error_message from tool_calls where server_id = $1 order by jsonrpc_id',
      [origin.serverId],
    );
    expect(calls).toEqual([
      { jsonrpc_id: '1', status: 'ok', error_message: null },
      { jsonrpc_id: '2', status: 'error', error_message: ORPHANED_CALL_MESSAGE },
      { jsonrpc_id: '3', status: 'pending', error_message: null },
      { jsonrpc_id: '4', status: 'pending', error_message: null },
    ]);

    // Nothing left to do: a second sweep changes nothing.
    expect(await live.sweepOrphans()).toEqual({ sessions: 0, calls: 0 });
    await live.close();
  });

  it('recounts the session’s messages, calls and errors from its stored rows', async () => {
    const crashedClock = { now: t0 };
    const crashed = recorderAt(crashedClock);
    const session = crashed.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'trailing' });
    crashed.record(session, 'client_to_server', call(1), 80);
    crashed.record(session, 'server_to_client', answer(1), 80);
    crashed.record(session, 'client_to_server', call(2), 80);
    crashed.record(session, 'server_to_client', { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'broke' } }, 80);
    crashed.record(
      session,
      'server_to_client',
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      80,
    );
    crashed.record(session, 'client_to_server', { jsonrpc: '2.0', id: 3, method: 'ping' }, 80);
    crashed.record(session, 'server_to_client', { jsonrpc: '2.0', id: 3, error: { code: -2, message: 'no ping' } }, 80);
    crashed.record(session, 'client_to_server', call(4), 80);
    await crashed.flush();
    // The instance died after writing these rows but before its session row caught up with them.
    await database.db.query('update sessions set message_count = 1, call_count = 0, error_count = 0 where id = $1', [
      session.row.id,
    ]);

    const liveClock = { now: t0 + minutes(40) };
    const live = recorderAt(liveClock);
    expect(await live.sweepOrphans()).toEqual({ sessions: 1, calls: 1 });
    const [row] = await database.db.query<{
      status: string;
      message_count: number;
      call_count: number;
      error_count: number;
    }>('select status, message_count, call_count, error_count from sessions where id = $1', [session.row.id]);
    // 8 messages (3 calls: requests and 2 answers; a notification; a ping and its error answer),
    // 3 calls, 3 errors (a call answered with an error, the ping's error, the call settled here).
    expect(row).toEqual({ status: 'ended', message_count: 8, call_count: 3, error_count: 3 });

    expect(await live.sweepOrphans()).toEqual({ sessions: 0, calls: 0 });
    await live.close();
  });
});
