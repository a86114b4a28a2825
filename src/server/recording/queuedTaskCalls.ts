import { isFailedCall, type ToolCallStatus } from '../../contract/sessions';
import type { RecordedSession } from './openSessions';
import type { QueuedToolCall } from './rows';
import { endHeldCall } from './storedCallEnd';
import type { StoredTaskSettles } from './storedTaskSettle';
import { TaskCalls } from './taskCalls';
import type { WriteQueue } from './writeQueue';

/**
 * The recorder's open tasks (taskCalls.ts), writing through its queue: a change of a task's call
 * is queued, its end settles the call, an end with no answer (the sweep) ends its row only if no
 * other instance has (storedCallEnd.ts), and an end heard for a task open on no instance here is
 * settled in the database (storedTaskSettle.ts).
 */
export function taskCallsOnQueue(queue: WriteQueue, storedTasks: StoredTaskSettles): TaskCalls<RecordedSession> {
  const settle = (call: QueuedToolCall, session: RecordedSession) => {
    queue.settleToolCall(call);
    // A task may end after its session's end was announced: that row is not written again (it
    // would count as a new session in the analytics); a failure is added to it where stored.
    if (!session.endAnnounced) queue.markDirty(session);
    else if (call.status === 'error' || call.status === 'timeout') storedTasks.countError(session.row.id);
  };
  return new TaskCalls<RecordedSession>({
    update: (call) => queue.pushToolCall(call),
    settle,
    expire: (ended, call, session) =>
      endHeldCall(storedTasks, queue, ended, session.row.client_name, () => {
        Object.assign(call, ended);
        if (isFailedCall(call.status as ToolCallStatus)) session.row.error_count++;
        settle(call, session);
      }),
    settleStored: (serverId, taskId, outcome) => storedTasks.settle(serverId, taskId, outcome),
  });
}
