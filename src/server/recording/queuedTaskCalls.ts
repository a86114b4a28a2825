import type { RecordedSession } from './openSessions';
import type { StoredTaskSettles } from './storedTaskSettle';
import { TaskCalls } from './taskCalls';
import type { WriteQueue } from './writeQueue';

/**
 * The recorder's open tasks (taskCalls.ts), writing through its queue: a change of a task's call
 * is queued, its end settles the call, and an end heard for a task open on no instance here is
 * settled in the database (storedTaskSettle.ts).
 */
export function taskCallsOnQueue(queue: WriteQueue, storedTasks: StoredTaskSettles): TaskCalls<RecordedSession> {
  return new TaskCalls<RecordedSession>({
    update: (call) => queue.pushToolCall(call),
    settle: (call, session) => {
      queue.settleToolCall(call);
      // A task may end after its session's end was announced: that row is not written again (it
      // would count as a new session in the analytics); a failure is added to it where stored.
      if (!session.endAnnounced) queue.markDirty(session);
      else if (call.status === 'error' || call.status === 'timeout') storedTasks.countError(session.row.id);
    },
    settleStored: (serverId, taskId, outcome) => storedTasks.settle(serverId, taskId, outcome),
  });
}
