import type { TestDatabase } from '../helpers/testDatabase';
import { engineName } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type RecordedSession, type SessionOrigin } from '../../../src/server/recording/recorder';

jest.setTimeout(60_000);

// The ends of a task's call that the SDK's own peers do not produce (taskCalls.test.ts drives
// those through the proxy): a status notification from the server, a task completed whose result
// nobody asks for, and tasks nobody hears of, on the recorder's own clock (its unanswered-call
// sweep ends them; a task still polled is not ended).
describe(`the lifecycle of a task's call (${engineName})`, () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  let clock = Date.parse('2026-11-29T10:00:00Z');
  let recorder: Recorder;
  let session: RecordedSession;
  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('tasks'));
    recorder = new Recorder(database.db, new EventBus(), {
      queueLimit: 1000,
      flushMs: 3_600_000,
      unansweredCallMs: 60_000,
      now: () => clock,
    });
    session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'tasks-1' });
  });
  afterAll(async () => {
    await recorder.close();
    await database.drop();
  });

  let nextId = 1;
  /** A task-augmented tools/call answered with a working task named `taskId`. */
  /** `via`: the recorder of another instance. */
  const startTask = (taskId: string, from = session, ttl: number | null = null, via = recorder) => {
    const id = nextId++;
    via.record(
      from,
      'client_to_server',
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'work', arguments: { taskId }, task: {} } },
      100,
    );
    clock += 5;
    via.record(
      from,
      'server_to_client',
      {
        jsonrpc: '2.0',
        id,
        result: { task: { taskId, status: 'working', createdAt: '', lastUpdatedAt: '', ttl } },
      },
      100,
    );
  };
  const poll = (taskId: string, status: string, from = session, via = recorder) => {
    const id = nextId++;
    via.record(from, 'client_to_server', { jsonrpc: '2.0', id, method: 'tasks/get', params: { taskId } }, 50);
    via.record(from, 'server_to_client', { jsonrpc: '2.0', id, result: { taskId, status } }, 50);
  };
  const callOf = async (taskId: string) => {
    await recorder.flush();
    const [call] = await database.db.query<{
      status: string;
      task_status: string;
      error_message: string | null;
      duration_ms: number;
    }>('select status, task_status, error_message, duration_ms from tool_calls where task_id = $1', [taskId]);
    return call;
  };

  it('settles a call cancelled by a status notification of the server, the notification staying a message', async () => {
    startTask('notified');
    clock += 100;
    recorder.record(
      session,
      'server_to_client',
      {
        jsonrpc: '2.0',
        method: 'notifications/tasks/status',
        params: { taskId: 'notified', status: 'cancelled', statusMessage: 'operator stopped it' },
      },
      80,
    );
    expect(await callOf('notified')).toMatchObject({
      status: 'cancelled',
      task_status: 'cancelled',
      error_message: 'Cancelled: operator stopped it',
      duration_ms: 105,
    });
    const notes = await database.db.query<{ n: number }>(
      "select count(*)::int as n from messages where session_id = $1 and method = 'notifications/tasks/status'",
      [session.row.id],
    );
    expect(notes[0].n).toBe(1);
  });

  it('ends tasks nobody hears of as timeouts, a completed one without a result as ok, and keeps a polled one open', async () => {
    const requestedAt = clock;
    startTask('completed-unasked');
    startTask('silent');
    startTask('polled');
    clock += 1_000;
    const completedAt = clock;
    poll('completed-unasked', 'completed');
    for (let i = 0; i < 3; i++) {
      clock += 30_000;
      poll('polled', 'working');
      recorder.sweepIdle();
    }
    expect(await callOf('silent')).toMatchObject({
      status: 'timeout',
      task_status: 'working',
      error_message: 'No news of the task within 60 s',
    });
    expect(await callOf('completed-unasked')).toMatchObject({
      status: 'ok',
      task_status: 'completed',
      duration_ms: completedAt - requestedAt,
    });
    expect(await callOf('polled')).toMatchObject({ status: 'pending', task_status: 'working' });
  });

  it('settles a task that outlives its session when another session hears it failed, counting the error in the ended session', async () => {
    const opening = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'tasks-2' });
    startTask('outlived', opening);
    recorder.endSession(opening);
    await recorder.flush();
    expect(opening.endAnnounced).toBe(true);
    expect(await callOf('outlived')).toMatchObject({ status: 'pending', task_status: 'working' });

    clock += 2_000;
    poll('outlived', 'failed', session);
    expect(await callOf('outlived')).toMatchObject({
      status: 'error',
      task_status: 'failed',
      error_message: 'The task failed',
    });
    const [row] = await database.db.query<{ status: string; call_count: number; error_count: number }>(
      'select status, call_count, error_count from sessions where id = $1',
      [opening.row.id],
    );
    expect(row).toEqual({ status: 'ended', call_count: 1, error_count: 1 });
    // The ended session is not written again: the analytics count each session started once.
    const [started] = await database.db.query<{ n: number }>(
      'select coalesce(sum(sessions), 0)::int as n from traffic_days where server_id = $1',
      [origin.serverId],
    );
    expect(started.n).toBe(2);
  });

  /** Another instance on the same database, on the same clock. */
  const otherInstance = () =>
    new Recorder(database.db, new EventBus(), {
      queueLimit: 1000,
      flushMs: 3_600_000,
      unansweredCallMs: 60_000,
      now: () => clock,
    });
  /** What every screen counts of the server's calls: the stored rows and the minute rollups agree. */
  const figuresAgree = async () => {
    const [rows] = await database.db.query<{ calls: number; errors: number }>(
      `select count(*)::int as calls, (count(*) filter (where status in ('error', 'timeout')))::int as errors
         from tool_calls where server_id = $1 and status <> 'pending'`,
      [origin.serverId],
    );
    const [usage] = await database.db.query<{ calls: number; errors: number }>(
      'select sum(calls)::int as calls, sum(errors)::int as errors from usage_minutes where server_id = $1',
      [origin.serverId],
    );
    expect(usage).toEqual(rows);
  };
  const errorsOf = async (sessionId: string) =>
    (await database.db.query<{ error_count: number }>('select error_count from sessions where id = $1', [sessionId]))[0]
      .error_count;

  it('counts a task another instance ended once, by that instance, when its holder later gives up on it', async () => {
    await figuresAgree();
    const holder = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'tasks-held' });
    startTask('ended-elsewhere', holder);
    await recorder.flush();
    const other = otherInstance();
    try {
      const poller = other.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'tasks-other' });
      poll('ended-elsewhere', 'failed', poller, other);
      await other.flush();
    } finally {
      await other.close();
    }
    expect(await callOf('ended-elsewhere')).toMatchObject({ status: 'error', task_status: 'failed' });
    await figuresAgree();
    // The holder heard nothing of it: its sweep gives up on the task, which another instance ended.
    clock += 61_000;
    recorder.sweepIdle();
    expect(await callOf('ended-elsewhere')).toMatchObject({ status: 'error', task_status: 'failed' });
    await figuresAgree();
    expect(await errorsOf(holder.row.id)).toBe(1);
  });

  it('ends at its ttl, from another instance, a task still open when the instance holding it stopped', async () => {
    const stopping = otherInstance();
    const opener = stopping.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'tasks-stopped' });
    startTask('orphaned', opener, 1_000, stopping);
    await stopping.close();
    // A graceful stop leaves tasks open: they outlive sessions (their server goes on with them).
    expect(await callOf('orphaned')).toMatchObject({ status: 'pending' });
    clock += 1_000;
    await recorder.sweepOrphans();
    expect(await callOf('orphaned')).toMatchObject({ status: 'pending' }); // its holder's own sweep had time yet
    clock += 60_001;
    await recorder.sweepOrphans();
    expect(await callOf('orphaned')).toMatchObject({
      status: 'timeout',
      error_message: 'The task did not end within its ttl',
      duration_ms: 1_005,
    });
    await figuresAgree();
    expect(await errorsOf(opener.row.id)).toBe(1);
  });
});
