import { previewAlertRule } from '../../../src/server/modules/alertRules/preview';
import type { AlertRuleFields } from '../../../src/server/modules/alertRules/store';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/testApp';

jest.setTimeout(90_000);

const MINUTE = 60_000;
const SERVER = '00000000-0000-4000-8000-0000000000aa';

// Live evaluation against the 7-day preview over the same rollups: a series written into the
// minute rollups (two real breaches and an hour that flaps every minute), the monitor stepped
// minute by minute with the test's clock. The flapping hour raises nothing; each breach raises one
// firing and one resolved; the preview replays to exactly the live history.
describe(`alert rules: live evaluation and preview agree (${engineName})`, () => {
  let t: TestApp;
  let ada: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    ada = await registerAccount(t.app);
    await t.app.alertRuleMonitor.stop();
  });
  afterAll(async () => {
    await t.close();
  });

  /** `calls` calls of which `errors` failed, by the client "bot", in the minute starting at `atMs`. */
  async function minute(atMs: number, calls: number, errors: number): Promise<void> {
    await t.app.db.query(
      `insert into traffic_minutes (workspace_id, bucket, server_id, tool_name, client_name, calls, tool_errors)
       values ($1, $2, $3, 'charge', 'bot', $4, $5)`,
      [ada.workspaceId, new Date(atMs), SERVER, calls, errors],
    );
  }

  it('gives one episode per breach, none for a flapping hour, and the preview the same episodes', async () => {
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const breachA = now - 2 * 1440 * MINUTE;
    const flapping = now - 1440 * MINUTE;
    const breachB = now - 120 * MINUTE;
    for (let i = 0; i < 6; i++) await minute(breachA + i * MINUTE, 10, 5);
    for (let i = 0; i < 60; i++) await minute(flapping + i * MINUTE, 10, i % 2 === 0 ? 5 : 0);
    for (let i = 0; i < 4; i++) await minute(breachB + i * MINUTE, 10, 5);

    const rule: AlertRuleFields = {
      name: 'Bot failing',
      metric: 'error_rate',
      scope: { client: 'bot' },
      condition: 'above',
      threshold: 5,
      windowMinutes: 1,
      forMinutes: 2,
      severity: 'critical',
      quietHours: null,
      notifyIntegrations: true,
      enabled: true,
    };
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ada.workspaceId}/alert-rules`,
      headers: bearer(ada.accessToken),
      payload: rule,
    });
    expect(created.statusCode).toBe(201);
    const ruleId = created.json<{ id: string }>().id;

    const titles = async () =>
      (
        await t.app.db.query<{ title: string }>(
          `select title from notifications where user_id = $1 and type = 'alert_rule' order by created_at`,
          [ada.user.id],
        )
      ).map((n) => n.title);
    const step = async (fromMs: number, toMs: number) => {
      for (let at = fromMs; at <= toMs; at += MINUTE) await t.app.alertRuleMonitor.evaluateAll(at);
    };
    await step(breachA - 2 * MINUTE, breachA + 12 * MINUTE);
    expect(await titles()).toEqual(['Alert firing: Bot failing', 'Alert resolved: Bot failing']);
    await step(flapping - 2 * MINUTE, flapping + 65 * MINUTE);
    expect(await titles()).toHaveLength(2);
    await step(breachB - 2 * MINUTE, breachB + 10 * MINUTE);
    expect(await titles()).toEqual([
      'Alert firing: Bot failing',
      'Alert resolved: Bot failing',
      'Alert firing: Bot failing',
      'Alert resolved: Bot failing',
    ]);

    const firings = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${ada.workspaceId}/alert-rules/${ruleId}/firings`,
        headers: bearer(ada.accessToken),
      })
    ).json<{ firings: { firedAt: string; resolvedAt: string | null }[] }>().firings;
    expect(firings).toHaveLength(2);
    const preview = await previewAlertRule(t.app.db, ada.workspaceId, rule, now);
    expect(preview.firings).toBe(2);
    expect(preview.episodes).toEqual(
      [...firings].reverse().map((f) => ({ firedAt: f.firedAt, resolvedAt: f.resolvedAt })),
    );
    expect(preview.episodes[0].firedAt).toBe(new Date(breachA + 3 * MINUTE).toISOString());
  });
});
