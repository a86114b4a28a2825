import type { NotificationType } from '../../contract/notifications';
import type { Queryable } from '../db/database';
import { enqueueMail } from '../mail/outbox';

// A notification also goes by email to recipients whose preferences list its type
// (emailNotificationTypes, docs/settings.md). Written to the outbox in the notification's own
// transaction: the outbox's retry sweep delivers it. Only new notifications mail, never a grouped
// repeat of one already unread, so a flapping condition cannot flood an inbox.
export async function enqueueNotificationMails(
  tx: Queryable,
  notification: { type: NotificationType; title: string; message: string; actionUrl?: string | null },
  recipientIds: string[],
): Promise<void> {
  if (recipientIds.length === 0) return;
  const recipients = await tx.query<{ email: string; first_name: string }>(
    `select email, first_name from users
      where id = any($1::uuid[]) and coalesce(preferences->'emailNotificationTypes', '[]'::jsonb) ? $2`,
    [recipientIds, notification.type],
  );
  for (const recipient of recipients) {
    await enqueueMail(tx, {
      to: recipient.email,
      subject: `Toolscope: ${notification.title}`,
      text: [
        `Hello ${recipient.first_name},`,
        '',
        notification.message,
        ...(notification.actionUrl ? ['', `Open in Toolscope: ${notification.actionUrl}`] : []),
        '',
        'You get this email because this notification type is ticked in Settings → Preferences.',
      ].join('\n'),
    });
  }
}
