import http from 'node:http';
import { engineName } from '../helpers/testDatabase';
import { recordedCalls } from '../helpers/recordedRows';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { listenOnLoopback } from '../helpers/loopbackServer';

jest.setTimeout(60_000);

// Issue 37, item 5: a tool call a 2026-07-28 server turns into a task (the tasks extension,
// io.modelcontextprotocol/tasks: the task at the top level of the result, `resultType: "task"`,
// its end inlined in the tasks/get answer) is one call, open until a poll shows its end.

/** A stateless server whose `render` becomes a task, completed at the second poll. */
async function startTaskingUpstream() {
  let polls = 0;
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const message = JSON.parse(text) as { id: number; method: string };
      const task = { taskId: 'render-1', createdAt: '', lastUpdatedAt: '', ttlMs: 60_000 };
      if (message.method !== 'tools/call' && message.method !== 'tasks/get') {
        // Discovery and health probes: nothing to offer.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }),
        );
        return;
      }
      const result =
        message.method === 'tools/call'
          ? { resultType: 'task', ...task, status: 'working' }
          : ++polls < 2
            ? { resultType: 'complete', ...task, status: 'working' }
            : {
                resultType: 'complete',
                ...task,
                status: 'completed',
                result: { content: [{ type: 'text', text: 'rendered 12 pages' }] },
              };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  return listenOnLoopback(server);
}

describe(`2026-07-28 task calls (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: Awaited<ReturnType<typeof startTaskingUpstream>>;
  beforeAll(async () => {
    upstream = await startTaskingUpstream();
    t = await startProxyApp();
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('records a call the server made a task as one call, ended by the result a poll inlines', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Renderer' });
    const send = async (id: number, method: string, name: string, params: Record<string, unknown>) => {
      const res = await fetch(new URL(proxyUrl.pathname, t.base), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          'mcp-name': name,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      });
      return ((await res.json()) as { result: { status?: string } }).result;
    };
    expect(await send(1, 'tools/call', 'render', { name: 'render', arguments: { doc: 'a' } })).toMatchObject({
      status: 'working',
    });
    await t.app.recorder.flush();
    const [open] = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
    expect(open).toMatchObject({ status: 'pending', task_id: 'render-1', task_status: 'working' });

    expect(await send(2, 'tasks/get', 'render-1', { taskId: 'render-1' })).toMatchObject({ status: 'working' });
    expect(await send(3, 'tasks/get', 'render-1', { taskId: 'render-1' })).toMatchObject({ status: 'completed' });
    await t.app.recorder.flush();
    const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      jsonrpc_id: '1',
      status: 'ok',
      task_id: 'render-1',
      task_status: 'completed',
      result: { status: 'completed', result: { content: [{ type: 'text', text: 'rendered 12 pages' }] } },
    });
  });
});
