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
 * Without SMTP the mail is written to the server log, so an operator can still hand a user the
 * reset link. This is the only log line that ever carries a token.
 */
export function logDelivery(log: FastifyBaseLogger): MailDelivery {
  return async (mail) => {
    log.info({ mailTo: mail.to }, `Mail not sent (TOOLSCOPE_SMTP_URL is not set). Subject: ${mail.subject}\n${mail.text}`);
  };
}
