// Outbox delivery across instances: a row is claimed for a short lease while one instance sends
// it (so two instances never send the same mail), and a failed send waits before the next try.
// Never edit a landed migration.
export const m003_outbox_delivery = `
alter table outbox add column claimed_until timestamptz;
alter table outbox add column next_attempt_at timestamptz not null default now();
create index outbox_pending on outbox (next_attempt_at) where sent_at is null;
`;
