import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { startStreamableUpstream, type SdkUpstream } from '../../proxy/support/sdkUpstream';

// A real MCP task server (the official SDK's experimental tasks, specification 2025-11-25) behind a
// stateless Streamable HTTP endpoint: one task store for every request, so any connection may
// poll any task. Its tools run as tasks that end when the test says (never on a timer): `finish`
// completes the task with the tool's result, `fail` fails it; `work` waits for either.

export interface TaskUpstream extends SdkUpstream {
  /** The tasks created so far, in order. */
  readonly taskIds: string[];
  /** Ends a task as completed with `text` as its tool result. */
  finish(taskId: string, text: string): Promise<void>;
  /** Ends a task as failed (the tool's result an error). */
  fail(taskId: string, text: string): Promise<void>;
}

/** Polled every `pollIntervalMs` by the SDK's client (it waits that long between polls on its own). */
export async function startTaskUpstream(pollIntervalMs = 20): Promise<TaskUpstream> {
  const taskStore = new InMemoryTaskStore();
  const taskMessageQueue = new InMemoryTaskMessageQueue();
  const taskIds: string[] = [];
  const build = () => {
    const server = new McpServer(
      { name: 'task-upstream', version: '1.0.0' },
      {
        capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
        taskStore,
        taskMessageQueue,
      },
    );
    server.experimental.tasks.registerToolTask(
      'work',
      {
        description: 'Works on a job in the background',
        inputSchema: { job: z.string() },
        execution: { taskSupport: 'required' },
      },
      {
        createTask: async (_args, extra) => {
          const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl, pollInterval: pollIntervalMs });
          taskIds.push(task.taskId);
          return { task };
        },
        getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) =>
          (await extra.taskStore.getTaskResult(extra.taskId)) as { content: { type: 'text'; text: string }[] },
      },
    );
    return server;
  };
  const upstream = await startStreamableUpstream({ json: true, stateful: false, build });
  return {
    ...upstream,
    taskIds,
    finish: (taskId, text) => taskStore.storeTaskResult(taskId, 'completed', { content: [{ type: 'text', text }] }),
    fail: (taskId, text) =>
      taskStore.storeTaskResult(taskId, 'failed', { content: [{ type: 'text', text }], isError: true }),
    close: async () => {
      taskStore.cleanup();
      await upstream.close();
    },
  };
}
