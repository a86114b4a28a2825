// Notifications: a tie-breaker for "latest first" (two raised within one millisecond keep their
// order), and indexes for the bell's reads (unread count, list) and the grouping look-up of raise().
export const m006_notifications = `
alter table notifications add column seq bigserial;
create index notifications_user_inbox on notifications (user_id, is_archived, updated_at desc, seq desc);
create index notifications_user_unread on notifications (user_id) where not is_read and not is_archived;
create index notifications_user_group on notifications (user_id, group_key) where group_key is not null;
`;
