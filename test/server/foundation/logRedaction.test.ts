import { Writable } from 'node:stream';
import { buildApp, type App } from '../../../src/server/app';
import { generateSecret, loadConfig } from '../../../src/server/config';
import { serverLoggerOptions } from '../../../src/server/http/logRedaction';
import { backgroundWorkIdle } from '../../../src/server/http/backgroundQueue';
import { openTestDatabase, engineName, type TestDatabase } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';

jest.setTimeout(300_000);

// Issue 16 item 9, as a grep of the real server log (main.ts's logger options, written to memory):
// with no SMTP and no TOOLSCOPE_DEV_MAIL_LOG the reset link never reaches the log — the log says
// mail is not configured — and no proxy key appears, for matched and unmatched /mcp/{key} URLs.
describe(`what the server log never holds (${engineName})`, () => {
  let database: TestDatabase;
  let app: App;
  let account: TestAccount;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const config = loadConfig(
      {},
      {
        secret: generateSecret(),
        clientDir: undefined,
        journalDir: undefined,
        smtpUrl: undefined,
        devMailLog: false,
        authRateLimitPerMinute: 10_000,
        healthIntervalMs: 3_600_000,
      },
    );
    app = await buildApp({ config, db: database.db, logger: serverLoggerOptions('info', stream) });
    await app.ready();
    account = await registerAccount(app, { email: 'log-grep@example.com' });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  async function waitForLine(pattern: RegExp): Promise<string> {
    for (let i = 0; i < 600; i++) {
      const hit = lines.find((line) => pattern.test(line));
      if (hit) return hit;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no log line matched ${pattern}`);
  }

  it('says mail is not configured instead of logging the reset link', async () => {
    await app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: account.email } });
    await backgroundWorkIdle(app);
    // (The sign-up's verification mail went the same way before: its line says so too.)
    const line = await waitForLine(/Mail not sent: mail is not configured.*Reset your Toolscope password/);
    expect(line).toContain('Reset your Toolscope password');
    expect(lines.join('\n')).not.toMatch(/reset-password\?token=/);
    expect(lines.join('\n')).not.toMatch(/verify-email\?token=/);
  });

  it('never logs a proxy key, for matched and unmatched proxy URLs', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${account.workspaceId}/servers`,
      headers: bearer(account.accessToken),
      payload: { url: 'http://127.0.0.1:9/mcp', name: 'logged?' },
    });
    const key = new URL(res.json().proxyUrl).pathname.split('/')[2];
    expect(key.length).toBeGreaterThan(20);
    const before = lines.length;
    expect((await app.inject({ method: 'GET', url: `/mcp/${key}/not/a/route?x=1` })).statusCode).toBe(404);
    await app.inject({
      method: 'POST',
      url: `/mcp/${key}`,
      headers: { 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    await app.inject({ method: 'GET', url: `/mcp/${key}/sse` });
    await waitForLine(/\/mcp\/\[redacted\]\/not\/a\/route/);
    expect(lines.length).toBeGreaterThan(before);
    expect(lines.filter((line) => line.includes(key))).toEqual([]);
  });
});
