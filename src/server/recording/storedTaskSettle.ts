import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/database';
import { ENDED_CALL_RETURNING, storedCallForRollups, type EndedCallRow } from './storedCallEnd';
import type { WriteQueue } from './writeQueue';

// A task outlives the session that started it, and may be polled from another session or another
// instance, which holds no open call for it (taskCalls.ts): its end is written straight to the
// call's row, found by (server, task id) among the open ones (migration 038's partial index). The
// row is only settled while still pending — whoever settles it first wins, and the recorder's own
// upsert of a call never reopens a settled one (batchWriter.ts). A failure is settled as an error
// in the call's session counts too, and the call is added to the minute rollups of the recorder
// whose statement ended it (the holder's own end of it is conditional too: storedCallEnd.ts).

/** How a task's call ends, as the answer or status that ends it gives it. */
export interface StoredTaskOutcome {
  status: 'ok' | 'error' | 'cancelled';
  errorMessage: string | null;
  taskStatus: string;
  endedAt: string;
  /** The tasks/result answer that ends it, kept as the call's answer (no place in the call's session). */
  response: { payload: string; kind: string; truncated: boolean; bytes: number } | null;
  /** That answer's result (or `{ error }`) as read in memory: what the rollups count its tokens of. */
  result: unknown;
}

const SETTLE_STORED_TASK = `with settled as (
    update tool_calls tc set status = $3, error_message = $4, task_status = $5,
      ended_at = greatest($6::timestamptz, started_at),
      duration_ms = greatest(0, round(extract(epoch from ($6::timestamptz - started_at)) * 1000))::int,
      response_payload = coalesce($7, response_payload), response_kind = coalesce($8, response_kind),
      response_truncated = coalesce($9, response_truncated), response_bytes = coalesce($10, response_bytes),
      tokens_estimate = ceil((request_bytes + coalesce($10, response_bytes)) / 4.0)::int
    where server_id = $1 and task_id = $2 and status = 'pending'
    returning ${ENDED_CALL_RETURNING}),
  counted as (update sessions s set error_count = s.error_count + 1
    from settled where s.id = settled.session_id and settled.status = 'error')
  select settled.*, s.client_name from settled join sessions s on s.id = settled.session_id`;

/**
 * Tasks open past their ttl that no instance holds — the one that held each stopped (a graceful
 * stop leaves tasks open: they outlive sessions and instances) — end as timeouts at their ttl;
 * `$2`: those this instance holds (its own sweep ends them).
 */
const END_EXPIRED_TASKS = `with settled as (
    update tool_calls tc set status = 'timeout', error_message = 'The task did not end within its ttl',
      ended_at = greatest(tc.task_expires_at, tc.started_at),
      duration_ms = greatest(0, round(extract(epoch from (tc.task_expires_at - tc.started_at)) * 1000))::int,
      tokens_estimate = ceil(tc.request_bytes / 4.0)::int
    where tc.task_id is not null and tc.status = 'pending' and tc.task_expires_at < $1::timestamptz
      and not (tc.id = any($2::uuid[]))
    returning ${ENDED_CALL_RETURNING}),
  counted as (update sessions s set error_count = s.error_count + c.n
    from (select session_id, count(*)::int as n from settled group by session_id) c where s.id = c.session_id)
  select settled.*, s.client_name from settled join sessions s on s.id = settled.session_id`;

/** Settles stored task calls, off the hot path; `idle()` resolves once every settle asked for is done. */
export class StoredTaskSettles {
  private readonly running = new Set<Promise<void>>();
  /** Statements done so far (idleThenFlush writes until none ends during its flush). */
  private finished = 0;

  constructor(
    private readonly db: Queryable,
    private readonly log: Pick<FastifyBaseLogger, 'error'> | undefined,
    private readonly queue: WriteQueue,
  ) {}

  settle(serverId: string, taskId: string, outcome: StoredTaskOutcome): void {
    const { response } = outcome;
    const params = [
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
    ];
    void this.run<EndedCallRow>(SETTLE_STORED_TASK, params).then((rows) => {
      const answer = { result: outcome.result, kind: response?.kind ?? null };
      for (const row of rows) this.queue.countStoredSettle(storedCallForRollups(row, answer), row.client_name);
    });
  }

  /**
   * Ends the stored tasks expired before `cutoff` that this instance does not hold (`held`): the
   * cutoff leaves a live holder time to end its own (its sweep runs every few seconds).
   */
  endExpired(cutoff: Date, held: readonly string[]): Promise<number> {
    return this.run<EndedCallRow>(END_EXPIRED_TASKS, [cutoff.toISOString(), held]).then((rows) => {
      for (const row of rows)
        this.queue.countStoredSettle(storedCallForRollups(row, { result: null, kind: null }), row.client_name);
      return rows.length;
    });
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
    void tracked.then(() => {
      this.running.delete(tracked);
      this.finished++;
    });
    return done;
  }

  /**
   * Writes with `flush` once the statements running are done, and again while statements end
   * meanwhile: what they counted (the rollups of the calls they ended) is written too.
   */
  async idleThenFlush(flush: () => Promise<void>): Promise<void> {
    let finished: number;
    do {
      await this.idle();
      finished = this.finished;
      await flush();
    } while (this.running.size > 0 || this.finished !== finished);
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
