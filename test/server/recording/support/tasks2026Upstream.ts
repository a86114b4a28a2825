import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A stateless 2026-07-28 server with the tasks extension (io.modelcontextprotocol/tasks), in raw
// JSON-RPC as the extension's text gives it: every tools/call becomes a task (`resultType:
// "task"`), `tasks/get` answers the task as it stands (a DetailedTask: its `inputRequests` while
// it waits for input, its `result` or `error` once ended), `tasks/update` takes `inputResponses`
// (the task works again once every request it waits on is answered; an unknown task is −32602;
// the test may have the next one refused), and `subscriptions/listen` streams a
// `notifications/tasks` with the whole task for each task id it names. Tasks end when the test
// says (never on a timer).

type Ending = { result: Record<string, unknown> } | { error: { code: number; message: string } };

interface Task {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed';
  inputRequests?: Record<string, unknown>;
  ending?: Ending;
}

export interface Tasks2026Upstream {
  url: string;
  /** Ends a task: `completed` with `result`, or `failed` with a JSON-RPC `error`. */
  end(taskId: string, ending: Ending): void;
  /** Puts a task in `input_required`, waiting on one request per key. */
  ask(taskId: string, keys: string[]): void;
  /** The next tasks/update is refused with an internal error (its input not taken). */
  refuseNextUpdate(): void;
  close(): Promise<void>;
}

const TIMES = { createdAt: '2026-11-29T10:00:00Z', lastUpdatedAt: '2026-11-29T10:00:00Z', ttlMs: 600_000 };

function detailed(task: Task): Record<string, unknown> {
  const { ending, ...rest } = task;
  return { ...rest, ...TIMES, ...(ending ?? {}) };
}

export async function startTasks2026Upstream(): Promise<Tasks2026Upstream> {
  const tasks = new Map<string, Task>();
  let created = 0;
  let refuseUpdate = false;
  const answer = (res: http.ServerResponse, body: Record<string, unknown>) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', ...body }));
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(text) as {
        id: number;
        method: string;
        params: {
          name?: string;
          taskId?: string;
          inputResponses?: Record<string, unknown>;
          notifications?: { taskIds?: string[] };
        };
      };
      const task = params.taskId === undefined ? undefined : tasks.get(params.taskId);
      if (method === 'tools/call') {
        const made: Task = { taskId: `${params.name}-${++created}`, status: 'working' };
        tasks.set(made.taskId, made);
        answer(res, { id, result: { resultType: 'task', ...detailed(made) } });
      } else if ((method === 'tasks/get' || method === 'tasks/update') && !task) {
        answer(res, { id, error: { code: -32602, message: 'Failed to retrieve task: Task not found' } });
      } else if (method === 'tasks/get' && task) {
        answer(res, { id, result: { resultType: 'complete', ...detailed(task) } });
      } else if (method === 'tasks/update' && refuseUpdate) {
        refuseUpdate = false;
        answer(res, { id, error: { code: -32603, message: 'Internal error: the input store is unavailable' } });
      } else if (method === 'tasks/update' && task) {
        for (const key of Object.keys(params.inputResponses ?? {})) delete task.inputRequests?.[key];
        if (task.status === 'input_required' && Object.keys(task.inputRequests ?? {}).length === 0) {
          task.status = 'working';
          delete task.inputRequests;
        }
        answer(res, { id, result: { resultType: 'complete' } });
      } else if (method === 'subscriptions/listen') {
        // The stream a client listens on: the acknowledgement, the whole task for each id, then the end.
        const taskIds = params.notifications?.taskIds ?? [];
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const event = (message: Record<string, unknown>) =>
          res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`);
        event({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds } } });
        for (const taskId of taskIds) {
          const listened = tasks.get(taskId);
          if (listened) event({ method: 'notifications/tasks', params: detailed(listened) });
        }
        event({ id, result: { resultType: 'complete' } });
        res.end();
      } else {
        // Discovery and health probes: nothing to offer.
        answer(res, { id, error: { code: -32601, message: 'Method not found' } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const taskOf = (taskId: string) => {
    const task = tasks.get(taskId);
    if (!task) throw new Error(`no task ${taskId}`);
    return task;
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    end: (taskId, ending) => {
      const task = taskOf(taskId);
      task.status = 'result' in ending ? 'completed' : 'failed';
      task.ending = ending;
      delete task.inputRequests;
    },
    ask: (taskId, keys) => {
      const task = taskOf(taskId);
      task.status = 'input_required';
      task.inputRequests = Object.fromEntries(
        keys.map((key) => [
          key,
          {
            method: 'elicitation/create',
            params: { mode: 'form', message: `Give ${key}`, requestedSchema: { type: 'object' } },
          },
        ]),
      );
    },
    refuseNextUpdate: () => (refuseUpdate = true),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Sends one 2026-07-28 request through the proxy at `url`; `name`: its Mcp-Name, if any. Returns the JSON-RPC messages answered. */
export async function send2026(
  url: URL,
  id: number,
  method: string,
  params: Record<string, unknown>,
  name?: string,
): Promise<{ id?: number; method?: string; result?: Record<string, unknown>; error?: { code: number } }[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) return [JSON.parse(text)];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

/** Who sent what, in replay order: `→`/`←`, the method (or result/error) and the JSON-RPC id. */
export function replayed(rows: { direction: string; payload: unknown }[]): string[] {
  return rows.map((row) => {
    const m = row.payload as { id?: number; method?: string; error?: unknown };
    const what = m.method ?? (m.error === undefined ? 'result' : 'error');
    return `${row.direction === 'client_to_server' ? '→' : '←'} ${what}${m.id === undefined ? '' : ` ${m.id}`}`;
  });
}
