import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/database';

// A task outlives the session that started it, and may be polled from another session or another
// instance, which holds no open call for it (taskCalls.ts): its end is written straight to the
// call's row, found by (server, task id) among the open ones (migration 038's partial index). The
// row is only settled while still pending — whoever settles it first wins, and the recorder's own
// upsert of a call never reopens a settled one (batchWriter.ts). A failure is settled as an error
// in the call's session counts too. The minute rollups are not: they are added by the recorder
// that settles a call in memory (docs/proxy.md "Tasks").

/** How a task's call ends, as the answer or status that ends it gives it. */
export interface StoredTaskOutcome {
  status: 'ok' | 'error' | 'cancelled';
  errorMessage: string | null;
  taskStatus: string;
  endedAt: string;
  /** The tasks/result answer that ends it, kept as the call's answer (no place in the call's session). */
  response: { payload: string; kind: string; truncated: boolean; bytes: number } | null;
}

const SETTLE_STORED_TASK = `with settled as (
    update tool_calls set status = $3, error_message = $4, task_status = $5,
      ended_at = greatest($6::timestamptz, started_at),
      duration_ms = greatest(0, round(extract(epoch from ($6::timestamptz - started_at)) * 1000))::int,
      response_payload = coalesce($7, response_payload), response_kind = coalesce($8, response_kind),
      response_truncated = coalesce($9, response_truncated), response_bytes = coalesce($10, response_bytes)
    where server_id = $1 and task_id = $2 and status = 'pending'
    returning session_id, status)
  update sessions s set error_count = s.error_count + 1
    from settled where s.id = settled.session_id and settled.status = 'error'`;

/** Settles stored task calls, off the hot path; `idle()` resolves once every settle asked for is done. */
export class StoredTaskSettles {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Queryable,
    private readonly log?: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  settle(serverId: string, taskId: string, outcome: StoredTaskOutcome): void {
    const { response } = outcome;
    const done = this.db.query(SETTLE_STORED_TASK, [
      serverId,
      taskId,
      outcome.status,
      outcome.errorMessage,
      outcome.taskStatus,
      outcome.endedAt,
      response?.payload ?? null,
      response?.kind ?? null,
      response?.truncated ?? null,
      response?.bytes ?? null,
    ]);
    this.track(done);
  }

  private track(query: Promise<unknown[]>): void {
    void this.query(query);
  }

  /**
   * A statement of the recorder's about stored calls (this file's, storedInputRounds.ts'), off the
   * hot path, awaited by `idle()`: its rows, or none when it failed (logged).
   */
  query<T>(query: Promise<T[]>): Promise<T[]> {
    const done = query.catch((error: unknown) => {
      this.log?.error({ err: error }, 'a statement settling stored calls failed');
      return [] as T[];
    });
    const tracked = done.then(() => undefined);
    this.running.add(tracked);
    void tracked.then(() => this.running.delete(tracked));
    return done;
  }

  /** Runs `sql` as query() does. */
  run<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.query(this.db.query<T>(sql, params));
  }

  /**
   * A call of a session whose end is announced failed (its task ended after it): the error is
   * added to the stored row, which the recorder does not write again.
   */
  countError(sessionId: string): void {
    this.track(this.db.query('update sessions set error_count = error_count + 1 where id = $1', [sessionId]));
  }

  /** Resolves once every statement asked for is done (and those they asked for); true when some were running. */
  async idle(): Promise<boolean> {
    const running = this.running.size > 0;
    while (this.running.size > 0) await Promise.all(this.running);
    return running;
  }
}
