import type { Queryable } from '../db/database';
import type { IntegrationEvent } from './payloads';

// The durable queue of integration deliveries: rows written in the transaction that raised the
// notification, claimed for a lease with FOR UPDATE SKIP LOCKED (one instance sends each; a
// crashed instance's lease runs out and another takes the row), retried with backoff.

export const DELIVERY_POLICY = {
  maxAttempts: 8,
  /** First retry after 30 s, doubling: the 8th attempt comes about an hour after the first. */
  retryBaseMs: 30_000,
  maxRetryDelayMs: 60 * 60_000,
  claimSeconds: 60,
  batchSize: 20,
  timeoutMs: 10_000,
  /** Final failures in a row that turn an integration off. */
  failuresToDisable: 5,
} as const;

export interface PendingDelivery {
  id: string;
  integrationId: string;
  event: IntegrationEvent;
  attempts: number;
}

export async function enqueueDeliveries(
  db: Queryable,
  integrationIds: string[],
  event: IntegrationEvent,
): Promise<void> {
  if (integrationIds.length === 0) return;
  await db.query(
    `insert into integration_deliveries (integration_id, event_type, event)
     select id, $2, $3::jsonb from unnest($1::uuid[]) as id`,
    [integrationIds, event.type, JSON.stringify(event)],
  );
}

/** Claims due deliveries for this instance; `attempts` counts this attempt. */
export async function claimDueDeliveries(db: Queryable): Promise<PendingDelivery[]> {
  const rows = await db.query<{ id: string; integration_id: string; event: IntegrationEvent; attempts: number }>(
    `update integration_deliveries set attempts = attempts + 1, claimed_until = now() + make_interval(secs => $1)
      where id in (
        select id from integration_deliveries
         where status = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
         order by next_attempt_at, created_at limit $2 for update skip locked)
      returning id, integration_id, event, attempts`,
    [DELIVERY_POLICY.claimSeconds, DELIVERY_POLICY.batchSize],
  );
  return rows.map((r) => ({ id: r.id, integrationId: r.integration_id, event: r.event, attempts: r.attempts }));
}

export async function markDelivered(db: Queryable, id: string): Promise<void> {
  await db.query(
    `update integration_deliveries set status = 'delivered', claimed_until = null, last_error = null, finished_at = now() where id = $1`,
    [id],
  );
}

export async function markFailed(db: Queryable, id: string, error: string): Promise<void> {
  await db.query(
    `update integration_deliveries set status = 'failed', claimed_until = null, last_error = $2, finished_at = now() where id = $1`,
    [id, error.slice(0, 1000)],
  );
}

export async function scheduleRetry(db: Queryable, id: string, delayMs: number, error: string): Promise<void> {
  await db.query(
    `update integration_deliveries set claimed_until = null, last_error = $2, next_attempt_at = now() + make_interval(secs => $3) where id = $1`,
    [id, error.slice(0, 1000), delayMs / 1000],
  );
}

/** Sends a past delivery's event again as a new delivery. */
export async function requeueDelivery(
  db: Queryable,
  integrationId: string,
  deliveryId: string,
): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>(
    `insert into integration_deliveries (integration_id, event_type, event)
     select integration_id, event_type, event from integration_deliveries where id = $1 and integration_id = $2
     returning id`,
    [deliveryId, integrationId],
  );
  return rows[0]?.id;
}

/** The wait before attempt `attempts + 1`: doubling from the base, at least what Retry-After asked. */
export function retryDelayMs(
  attempts: number,
  retryAfterMs: number | null,
  baseMs: number = DELIVERY_POLICY.retryBaseMs,
): number {
  const backoff = baseMs * 2 ** Math.max(0, attempts - 1);
  return Math.min(Math.max(backoff, retryAfterMs ?? 0), DELIVERY_POLICY.maxRetryDelayMs);
}
