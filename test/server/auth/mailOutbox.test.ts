// Building the database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';
import { startFakeSmtpServer, type FakeSmtpServer } from '../helpers/fakeSmtpServer';
import { registerAccount } from '../helpers/accounts';
import { enqueueMail } from '../../../src/server/mail/outbox';
import { OutboxDispatcher } from '../../../src/server/mail/dispatcher';
import { smtpDelivery } from '../../../src/server/mail/delivery';

const silentLog = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child: () => silentLog,
  level: 'silent',
  silent() {},
} as never;

describe(`mail outbox delivery (${engineName})`, () => {
  let database: TestDatabase;
  let smtp: FakeSmtpServer;
  beforeAll(async () => {
    database = await openTestDatabase();
    smtp = await startFakeSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
    await database.drop();
  });
  beforeEach(() => database.db.query('delete from outbox'));

  it('sends queued mail over SMTP once, then forgets the body', async () => {
    await enqueueMail(database.db, { to: 'someone@example.com', subject: 'Hello', text: 'A body with a link' });
    const dispatcher = new OutboxDispatcher(
      database.db,
      smtpDelivery(smtp.url, 'Toolscope <no-reply@toolscope.local>'),
      silentLog,
    );
    await dispatcher.deliverPending();
    await dispatcher.deliverPending();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['<someone@example.com>']);
    expect(smtp.received[0].data).toContain('Subject: Hello');
    expect(smtp.received[0].data).toContain('A body with a link');
    const rows = await database.db.query<{ body: string; sent_at: Date | null; attempts: number }>(
      'select body, sent_at, attempts from outbox',
    );
    expect(rows).toEqual([{ body: '', sent_at: expect.any(Date), attempts: 1 }]);
    await dispatcher.close();
  });

  it('keeps a mail whose send failed, records why, and retries it only when due', async () => {
    const attempts: string[] = [];
    let failing = true;
    const dispatcher = new OutboxDispatcher(
      database.db,
      (mail) => {
        attempts.push(mail.to);
        return failing ? Promise.reject(new Error('connection refused')) : Promise.resolve();
      },
      silentLog,
    );
    await enqueueMail(database.db, { to: 'later@example.com', subject: 'Retry', text: 'body' });
    await dispatcher.deliverPending();
    let rows = await database.db.query<{ last_error: string; sent_at: Date | null; due_later: boolean }>(
      'select last_error, sent_at, next_attempt_at > now() as due_later from outbox',
    );
    expect(rows).toEqual([{ last_error: 'connection refused', sent_at: null, due_later: true }]);

    await dispatcher.deliverPending();
    expect(attempts).toHaveLength(1);

    // The back-off has passed (simulated by moving the due time), and the mail server is back.
    failing = false;
    await database.db.query('update outbox set next_attempt_at = now()');
    await dispatcher.deliverPending();
    expect(attempts).toHaveLength(2);
    rows = await database.db.query('select last_error, sent_at, next_attempt_at > now() as due_later from outbox');
    expect(rows[0]).toMatchObject({ last_error: null, sent_at: expect.any(Date) });
    await dispatcher.close();
  });

  it('leaves a mail another instance has claimed alone', async () => {
    await enqueueMail(database.db, { to: 'claimed@example.com', subject: 'Claimed', text: 'body' });
    await database.db.query(`update outbox set claimed_until = now() + interval '1 minute'`);
    const sent: string[] = [];
    const dispatcher = new OutboxDispatcher(
      database.db,
      (mail) => {
        sent.push(mail.to);
        return Promise.resolve();
      },
      silentLog,
    );
    await dispatcher.deliverPending();
    expect(sent).toEqual([]);
    await dispatcher.close();
  });
});

describe(`password reset mail over SMTP (${engineName})`, () => {
  let t: TestApp;
  let smtp: FakeSmtpServer;
  beforeAll(async () => {
    smtp = await startFakeSmtpServer();
    t = await buildTestApp({ smtpUrl: smtp.url, publicUrl: 'https://toolscope.example.com' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('mails the reset link to the account when TOOLSCOPE_SMTP_URL is set', async () => {
    const account = await registerAccount(t.app, { email: 'smtp-user@example.com' });
    // Sign-up mails the verification link first; the reset mail is the next one.
    const verification = await smtp.firstMail();
    expect(verification.data).toContain('Subject: Verify your email address for Toolscope');
    const resetMail = smtp.nextMail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: account.email },
    });
    expect(res.statusCode).toBe(200);
    const mail = await resetMail;
    expect(mail.to).toEqual(['<smtp-user@example.com>']);
    // Quoted-printable may wrap long lines with "=\r\n"; unwrap before looking for the link.
    expect(mail.data.replace(/=\r\n/g, '')).toContain('https://toolscope.example.com/reset-password?token=');
  });
});
