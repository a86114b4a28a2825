import type { Queryable } from '../db/database';

// Mail is written to the outbox table in the same transaction as the change that causes it, and
// delivered afterwards by OutboxDispatcher: a request never waits on SMTP, and a mail is never
// lost because the mail server was briefly down.
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export async function enqueueMail(db: Queryable, mail: OutgoingMail): Promise<string> {
  const rows = await db.query<{ id: string }>(
    'insert into outbox (recipient, subject, body) values ($1, $2, $3) returning id',
    [mail.to, mail.subject, mail.text],
  );
  return rows[0].id;
}

export interface PendingMail extends OutgoingMail {
  id: string;
  attempts: number;
}

export const OUTBOX_DELIVERY = { maxAttempts: 6, claimSeconds: 120, batchSize: 20 } as const;

/** Claims due, unsent mails for this instance (a lease, so other instances skip them). */
export async function claimPendingMail(db: Queryable): Promise<PendingMail[]> {
  const rows = await db.query<{ id: string; recipient: string; subject: string; body: string; attempts: number }>(
    `update outbox set attempts = attempts + 1, claimed_until = now() + make_interval(secs => $2)
     where id in (
       select id from outbox
       where sent_at is null and attempts < $1 and next_attempt_at <= now()
         and (claimed_until is null or claimed_until < now())
       order by created_at limit $3 for update skip locked)
     returning id, recipient, subject, body, attempts`,
    [OUTBOX_DELIVERY.maxAttempts, OUTBOX_DELIVERY.claimSeconds, OUTBOX_DELIVERY.batchSize],
  );
  return rows.map((r) => ({ id: r.id, to: r.recipient, subject: r.subject, text: r.body, attempts: r.attempts }));
}

/** Marks a mail delivered and drops its body: it may hold a one-time link. */
export async function markMailSent(db: Queryable, id: string): Promise<void> {
  await db.query(
    `update outbox set sent_at = now(), claimed_until = null, body = '', last_error = null where id = $1`,
    [id],
  );
}

/** Records a failed send; the next try waits 2^attempts minutes. */
export async function markMailFailed(db: Queryable, id: string, attempts: number, error: string): Promise<void> {
  await db.query(
    `update outbox set claimed_until = null, last_error = $2, next_attempt_at = now() + make_interval(mins => $3) where id = $1`,
    [id, error.slice(0, 500), 2 ** attempts],
  );
}
