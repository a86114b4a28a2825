import { Webhook } from 'standardwebhooks';
import type { IntegrationActivityDto, IntegrationDto, WebhookEventBody } from '../../../src/contract/integrations';
import { retryDelayMs } from '../../../src/server/integrations/deliveryQueue';
import { parseRetryAfter } from '../../../src/server/integrations/sender';
import { openSecrets } from '../../../src/server/data/integrations/secrets';
import { registerAccount, bearer, type TestAccount } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { startReceiver, waitUntil, type Receiver } from './receiver';

// Integrations through the real app: CRUD with write-only secrets, a Standard Webhooks receiver
// verifying signatures with the `standardwebhooks` library, retries with backoff, 410, and rules.
jest.setTimeout(60_000);

describe(`integrations (${engineName})`, () => {
  let t: TestApp;
  let ada: TestAccount;
  const receivers: Receiver[] = [];
  const receiver = async (script?: Receiver['script']) => {
    const r = await startReceiver(script);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    t = await buildTestApp({ integrationRetryBaseMs: 40 });
    ada = await registerAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  const base = () => `/api/v1/workspaces/${ada.workspaceId}/integrations`;
  const create = async (payload: Record<string, unknown>, who: TestAccount = ada) =>
    t.app.inject({ method: 'POST', url: base(), headers: bearer(who.accessToken), payload });
  const activities = async (id: string): Promise<IntegrationActivityDto[]> =>
    (await t.app.inject({ method: 'GET', url: `${base()}/${id}/activities`, headers: bearer(ada.accessToken) })).json()
      .activities;
  const raise = (overrides: Record<string, unknown> = {}) =>
    t.app.notifications.raise({
      workspaceId: ada.workspaceId,
      type: 'tool_server_status',
      severity: 'error',
      title: 'Server Offline',
      message: 'weather is not responding to health checks',
      actionUrl: '/servers?serverId=00000000-0000-4000-8000-000000000001',
      metadata: { serverId: '00000000-0000-4000-8000-000000000001', status: 'offline', serverName: 'weather' },
      ...overrides,
    });

  it('creates a signed webhook whose generated secret is shown once, then masked; the receiver verifies the signature', async () => {
    const hook = await receiver();
    const res = await create({
      kind: 'webhook',
      name: 'Ops hook',
      config: { url: `${hook.url}/hooks` },
      rules: { types: ['tool_server_status'], minSeverity: 'error' },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<IntegrationDto & { revealedSecret: string }>();
    expect(created.revealedSecret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(created.config.secret).toBe(`••••${created.revealedSecret.slice(-4)}`);

    const shown = (
      await t.app.inject({ method: 'GET', url: `${base()}/${created.id}`, headers: bearer(ada.accessToken) })
    ).json();
    expect(JSON.stringify(shown)).not.toContain(created.revealedSecret);
    expect(shown).not.toHaveProperty('revealedSecret');

    await raise();
    const [request] = await hook.waitForRequests(1);
    const event = new Webhook(created.revealedSecret).verify(
      request.body,
      request.headers as Record<string, string>,
    ) as WebhookEventBody;
    expect(event).toMatchObject({
      type: 'notification.raised',
      data: {
        workspaceId: ada.workspaceId,
        notification: { type: 'tool_server_status', severity: 'error', title: 'Server Offline' },
      },
    });
    expect(event.data.notification.url).toMatch(/^http:\/\/.+\/servers\?serverId=/);
    // A tampered body fails verification: the signature covers it.
    expect(() =>
      new Webhook(created.revealedSecret).verify(
        request.body.replace('Offline', 'Online'),
        request.headers as Record<string, string>,
      ),
    ).toThrow();

    const [activity] = await waitUntil(async () => {
      const list = await activities(created.id);
      return list.length > 0 && list;
    });
    expect(activity).toMatchObject({ event: 'tool_server_status', status: 'delivered', statusCode: 200, attempt: 1 });
    await t.app.inject({ method: 'DELETE', url: `${base()}/${created.id}`, headers: bearer(ada.accessToken) });
  });

  it('sends Slack Block Kit and PagerDuty trigger/resolve to matching integrations only, once each', async () => {
    const slack = await receiver();
    const pagerDuty = await receiver([{ status: 202 }]);
    const billingOnly = await receiver();
    const ids: string[] = [];
    for (const payload of [
      {
        kind: 'slack',
        name: 'Slack #ops',
        config: { webhookUrl: `${slack.url}/services/T/B/x` },
        rules: { types: [], minSeverity: 'error' },
      },
      {
        kind: 'pagerduty',
        name: 'On call',
        config: { routingKey: 'R0UT1NGKEY', eventsUrl: `${pagerDuty.url}/v2/enqueue` },
        rules: { types: ['tool_server_status'], minSeverity: 'error' },
      },
      {
        kind: 'webhook',
        name: 'Billing',
        config: { url: billingOnly.url },
        rules: { types: ['billing_alert'], minSeverity: 'info' },
      },
    ]) {
      const res = await create(payload);
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    const slackShown = (
      await t.app.inject({ method: 'GET', url: `${base()}/${ids[0]}`, headers: bearer(ada.accessToken) })
    ).json();
    expect(slackShown.config.webhookUrl).toBe('••••/B/x');

    await raise();
    await slack.waitForRequests(1);
    await pagerDuty.waitForRequests(1);
    const slackBody = JSON.parse(slack.requests[0].body);
    expect(slackBody.text).toContain('Server Offline');
    expect(slackBody.attachments[0].color).toBe('#E01E5A');
    expect(slackBody.attachments[0].blocks[0]).toMatchObject({ type: 'header', text: { text: 'Server Offline' } });
    expect(slackBody.attachments[0].blocks.at(-1).elements[0].url).toMatch(/\/servers\?serverId=/);
    const trigger = JSON.parse(pagerDuty.requests[0].body);
    expect(trigger).toMatchObject({
      routing_key: 'R0UT1NGKEY',
      event_action: 'trigger',
      payload: { severity: 'error', source: 'weather' },
    });

    await raise({
      severity: 'success',
      title: 'Server Online',
      message: 'weather is responding again',
      metadata: { serverId: '00000000-0000-4000-8000-000000000001', status: 'online', serverName: 'weather' },
    });
    await pagerDuty.waitForRequests(2);
    const resolve = JSON.parse(pagerDuty.requests[1].body);
    expect(resolve).toEqual({ routing_key: 'R0UT1NGKEY', event_action: 'resolve', dedup_key: trigger.dedup_key });
    await t.app.integrationDispatcher.deliverDue();
    // "Back online" is below Slack's minimum severity; billing-only never matched.
    expect(slack.requests).toHaveLength(1);
    expect(billingOnly.requests).toHaveLength(0);
    for (const id of ids)
      await t.app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: bearer(ada.accessToken) });
  });

  it('retries 5xx with backoff: 500, 500, then 200 gives three activities and a delivery', async () => {
    const flaky = await receiver([{ status: 500 }, { status: 503 }, { status: 200 }]);
    const id = (
      await create({
        kind: 'webhook',
        name: 'Flaky',
        config: { url: flaky.url },
        rules: { types: [], minSeverity: 'warning' },
      })
    ).json().id;
    await raise();
    await flaky.waitForRequests(3);
    const list = await waitUntil(async () => {
      const all = await activities(id);
      return all.length === 3 && all;
    });
    expect(list.map((a) => [a.status, a.statusCode, a.attempt])).toEqual([
      ['delivered', 200, 3],
      ['retrying', 503, 2],
      ['retrying', 500, 1],
    ]);
    // Receivers can dedupe: every attempt of one delivery carries the same webhook-id.
    expect(new Set(flaky.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    await t.app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: bearer(ada.accessToken) });
  });

  it('turns an integration off on 410 Gone and says why; a 4xx other than 429 is not retried', async () => {
    const gone = await receiver([{ status: 410 }]);
    const id = (
      await create({
        kind: 'slack',
        name: 'Archived channel',
        config: { webhookUrl: gone.url },
        rules: { types: [], minSeverity: 'info' },
      })
    ).json().id;
    await raise();
    const shown = await waitUntil(async () => {
      const it = (
        await t.app.inject({ method: 'GET', url: `${base()}/${id}`, headers: bearer(ada.accessToken) })
      ).json<IntegrationDto>();
      return !it.enabled && it;
    });
    expect(shown.disabledReason).toMatch(/410 Gone/);
    expect(gone.requests).toHaveLength(1);
    // Owners and admins hear of it in the app.
    await waitUntil(
      async () =>
        (
          await t.app.db.query(`select 1 from notifications where user_id = $1 and title = 'Integration turned off'`, [
            ada.user.id,
          ])
        ).length === 1,
    );
    // Off means off: the next notification is not sent to it.
    await raise();
    await t.app.integrationDispatcher.deliverDue();
    expect(gone.requests).toHaveLength(1);
    await t.app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: bearer(ada.accessToken) });
  });

  it('test sends a sample with a saved or unsaved config and answers with the outcome; resend sends a past delivery again', async () => {
    const hook = await receiver([{ status: 200 }]);
    const unsaved = await t.app.inject({
      method: 'POST',
      url: `${base()}/test`,
      headers: bearer(ada.accessToken),
      payload: { kind: 'webhook', config: { url: hook.url } },
    });
    expect(unsaved.statusCode).toBe(200);
    expect(unsaved.json()).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(JSON.parse(hook.requests[0].body).type).toBe('integration.test');

    const created = (
      await create({
        kind: 'webhook',
        name: 'Saved',
        config: { url: hook.url },
        rules: { types: [], minSeverity: 'error' },
      })
    ).json();
    hook.script = [{ status: 502 }];
    const saved = await t.app.inject({
      method: 'POST',
      url: `${base()}/${created.id}/test`,
      headers: bearer(ada.accessToken),
      payload: {},
    });
    expect(saved.json()).toMatchObject({ ok: false, statusCode: 502 });
    expect((await activities(created.id))[0]).toMatchObject({ event: 'test', status: 'failed', statusCode: 502 });

    hook.script = [{ status: 200 }];
    await raise();
    const delivered = await waitUntil(async () =>
      (await activities(created.id)).find((a) => a.status === 'delivered' && a.deliveryId),
    );
    const before = hook.requests.length;
    const resend = await t.app.inject({
      method: 'POST',
      url: `${base()}/${created.id}/activities/${delivered.id}/resend`,
      headers: bearer(ada.accessToken),
    });
    expect(resend.statusCode).toBe(202);
    await hook.waitForRequests(before + 1);
    expect(JSON.parse(hook.requests.at(-1)!.body).data.notification.title).toBe('Server Offline');
    await t.app.inject({ method: 'DELETE', url: `${base()}/${created.id}`, headers: bearer(ada.accessToken) });
  });

  it('email integrations queue one mail per address in the outbox', async () => {
    const id = (
      await create({
        kind: 'email',
        name: 'Ops mail',
        config: { to: ['ops@example.com', 'lead@example.com'] },
        rules: { types: [], minSeverity: 'error' },
      })
    ).json().id;
    await raise({ title: 'Email me' });
    await waitUntil(async () => (await activities(id)).some((a) => a.status === 'delivered'));
    const mails = await t.app.db.query<{ recipient: string; subject: string }>(
      `select recipient, subject from outbox where subject = '[Toolscope] Email me' order by recipient`,
    );
    expect(mails.map((m) => m.recipient)).toEqual(['lead@example.com', 'ops@example.com']);
    await t.app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: bearer(ada.accessToken) });
  });

  it('refuses bad input with a 400 naming the field and changes nothing; another workspace sees 404', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ kind: 'slack', name: 'x', config: { webhookUrl: 'not a url' } }, /config\.webhookUrl/],
      [{ kind: 'webhook', name: 'x', config: { url: 'http://169.254.169.254/latest' } }, /config\.url: .*metadata/i],
      [{ kind: 'webhook', name: 'x', config: { url: 'http://127.0.0.1:1', secret: 'plain' } }, /config\.secret/],
      [{ kind: 'email', name: 'x', config: { to: [] } }, /config\.to/],
      [{ kind: 'sms', name: 'x', config: {} }, /kind/],
      [{ kind: 'pagerduty', name: '', config: { routingKey: 'k' } }, /name/],
      [
        { kind: 'webhook', name: 'x', config: { url: 'http://127.0.0.1:1' }, rules: { minSeverity: 'loud' } },
        /rules\.minSeverity/,
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await create(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const listed = (await t.app.inject({ method: 'GET', url: base(), headers: bearer(ada.accessToken) })).json();
    expect(listed.integrations).toHaveLength(0);

    const id = (await create({ kind: 'webhook', name: 'Mine', config: { url: 'http://127.0.0.1:9' } })).json().id;
    const bob = await registerAccount(t.app);
    for (const [method, suffix] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/activities'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/v1/workspaces/${bob.workspaceId}/integrations/${id}${suffix}`,
        headers: bearer(bob.accessToken),
        payload: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode).toBe(404);
    }
    const badLimit = await t.app.inject({
      method: 'GET',
      url: `${base()}/${id}/activities?limit=0`,
      headers: bearer(ada.accessToken),
    });
    expect(badLimit.statusCode).toBe(400);
    // A PUT that sends the masked secret back keeps the stored one.
    const before = await t.app.db.query<{ secrets: string }>('select secrets from integrations where id = $1', [id]);
    const shown = (
      await t.app.inject({ method: 'GET', url: `${base()}/${id}`, headers: bearer(ada.accessToken) })
    ).json();
    const put = await t.app.inject({
      method: 'PUT',
      url: `${base()}/${id}`,
      headers: bearer(ada.accessToken),
      payload: { name: 'Renamed', config: shown.config },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().name).toBe('Renamed');
    const after = await t.app.db.query<{ secrets: string }>('select secrets from integrations where id = $1', [id]);
    expect(openSecrets(after[0].secrets, t.config.secret)).toEqual(openSecrets(before[0].secrets, t.config.secret));
    await t.app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: bearer(ada.accessToken) });
  });
});

describe('delivery timing rules', () => {
  it('doubles from the base, honours a longer Retry-After, caps at an hour', () => {
    expect([1, 2, 3, 7].map((n) => retryDelayMs(n, null, 30_000))).toEqual([30_000, 60_000, 120_000, 1_920_000]);
    expect(retryDelayMs(1, 90_000, 30_000)).toBe(90_000);
    expect(retryDelayMs(20, null, 30_000)).toBe(3_600_000);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString(), Date.now())).toBeGreaterThan(55_000);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
