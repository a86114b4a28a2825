import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { OutgoingMail } from './outbox';

/** Sends one mail or throws. */
export type MailDelivery = (mail: OutgoingMail) => Promise<void>;

/** SMTP through nodemailer; the URL carries host, port, credentials (smtp://, smtps://). */
export function smtpDelivery(smtpUrl: string, from: string): MailDelivery {
  const transport = nodemailer.createTransport(smtpUrl);
  return async (mail) => {
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
  };
}

/**
 * Without SMTP no mail leaves. With TOOLSCOPE_DEV_MAIL_LOG=true (local use, demos) the whole mail
 * is written to the server log so a developer can follow a reset or invitation link — the only
 * log line that ever carries a token. Otherwise the log says only that mail is not configured,
 * to whom and what: a shared log never holds a working reset link.
 */
export function logDelivery(log: FastifyBaseLogger, includeBody: boolean): MailDelivery {
  return (mail) => {
    if (includeBody) {
      log.info(
        { mailTo: mail.to },
        `Mail not sent (TOOLSCOPE_SMTP_URL is not set). Subject: ${mail.subject}\n${mail.text}`,
      );
      return Promise.resolve();
    }
    log.warn(
      { mailTo: mail.to },
      `Mail not sent: mail is not configured (set TOOLSCOPE_SMTP_URL; TOOLSCOPE_DEV_MAIL_LOG=true logs mail for local use). Subject: ${mail.subject}`,
    );
    return Promise.resolve();
  };
}
