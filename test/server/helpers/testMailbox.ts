import { startFakeSmtpServer, type FakeSmtpServer, type ReceivedMail } from './fakeSmtpServer';

// One SMTP mailbox per test process that every app built by buildTestApp mails to (unless a test
// names its own SMTP): a test reads a verification link the way a user does, from the mail that
// arrived, rather than from the database.
let mailbox: Promise<FakeSmtpServer> | undefined;

export function testMailbox(): Promise<FakeSmtpServer> {
  mailbox ??= startFakeSmtpServer({ unref: true });
  return mailbox;
}

/** Nodemailer sends text as quoted-printable: soft line breaks and =XX escapes undone. */
export function mailText(mail: ReceivedMail): string {
  const separator = mail.data.indexOf('\r\n\r\n');
  const body = separator < 0 ? mail.data : mail.data.slice(separator + 4);
  return body
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The latest mail to `to` whose text matches `pattern`, waiting for it to arrive. */
export async function waitForMail(to: string, pattern: RegExp): Promise<RegExpExecArray> {
  const box = await testMailbox();
  for (;;) {
    for (const mail of [...box.received].reverse()) {
      if (!mail.to.some((recipient) => recipient.includes(to))) continue;
      const found = pattern.exec(mailText(mail));
      if (found) return found;
    }
    await box.nextMail();
  }
}
