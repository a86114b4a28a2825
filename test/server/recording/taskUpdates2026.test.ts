import { engineName } from '../helpers/testDatabase';
import { recordedCalls, recordedMessages } from '../helpers/recordedRows';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { replayed, send2026, startTasks2026Upstream, type Tasks2026Upstream } from './support/tasks2026Upstream';

jest.setTimeout(60_000);

// Issue 37, item 5: a 2026-07-28 task that needs input (`input_required`, its `inputRequests` in
// the tasks/get answer) is answered by the client's `tasks/update` (`inputResponses`, keyed like
// the requests). For the user that is part of the one tool call: the call's task status moves on
// to `working` once every request the task waits on is answered (a partial set leaves it
// waiting), a refused update moves nothing, and every update and its answer is a message of the
// session in its place — the call counted once, a refusal counted as no failed call.

describe(`2026-07-28 task updates (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: Tasks2026Upstream;
  beforeAll(async () => {
    upstream = await startTasks2026Upstream();
    t = await startProxyApp();
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('moves the task of a call on when tasks/update answers every input it waits on, an update and its answer in the replay', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Asking task' });
    const url = new URL(proxyUrl.pathname, t.base);
    const [created] = await send2026(url, 1, 'tools/call', { name: 'sign_up', arguments: {} }, 'sign_up');
    const taskId = created.result?.taskId as string;
    const taskOfCall = async () => {
      await t.app.recorder.flush();
      const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
      expect(calls).toHaveLength(1);
      return calls[0];
    };
    const update = async (id: number, keys: string[]) =>
      (
        await send2026(
          url,
          id,
          'tasks/update',
          { taskId, inputResponses: Object.fromEntries(keys.map((k) => [k, { action: 'accept', content: {} }])) },
          taskId,
        )
      )[0];

    upstream.ask(taskId, ['name', 'email']);
    expect((await send2026(url, 2, 'tasks/get', { taskId }, taskId))[0].result).toMatchObject({
      status: 'input_required',
    });
    expect(await taskOfCall()).toMatchObject({ status: 'pending', task_status: 'input_required' });

    // Refused: the input was not taken, the task still waits (and the refusal is no failed call).
    upstream.refuseNextUpdate();
    expect((await update(3, ['name'])).error).toMatchObject({ code: -32603 });
    expect(await taskOfCall()).toMatchObject({ status: 'pending', task_status: 'input_required' });
    // A partial set: the task still waits for the other.
    expect((await update(4, ['name'])).result).toEqual({ resultType: 'complete' });
    expect(await taskOfCall()).toMatchObject({ status: 'pending', task_status: 'input_required' });
    // Every input given: the task works again.
    expect((await update(5, ['email'])).result).toEqual({ resultType: 'complete' });
    expect(await taskOfCall()).toMatchObject({ status: 'pending', task_status: 'working' });

    upstream.end(taskId, { result: { content: [{ type: 'text', text: 'signed up' }] } });
    expect((await send2026(url, 6, 'tasks/get', { taskId }, taskId))[0].result).toMatchObject({ status: 'completed' });
    const call = await taskOfCall();
    expect(call).toMatchObject({ status: 'ok', task_status: 'completed', error_message: null });
    const [counts] = await t.database.db.query<{ call_count: number; error_count: number }>(
      'select call_count, error_count from sessions where id = $1',
      [call.session_id],
    );
    expect(counts).toEqual({ call_count: 1, error_count: 0 });
    expect(replayed(await recordedMessages(t.database.db, call.session_id))).toEqual([
      '→ tools/call 1',
      '← result 1',
      '→ tasks/get 2',
      '← result 2',
      '→ tasks/update 3',
      '← error 3',
      '→ tasks/update 4',
      '← result 4',
      '→ tasks/update 5',
      '← result 5',
      '→ tasks/get 6',
      '← result 6',
    ]);
  });
});
