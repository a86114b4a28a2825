import { MASK } from '../../../src/contract/integrations';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { addToWorkspace } from '../helpers/workspaceMembers';
import { startReceiver, type Receiver } from './receiver';

// Issue 31 item 2: an admin who did not enter them received a PagerDuty routing key (test or PUT
// with the masked key and `eventsUrl` at their listener) and an exporter's Authorization header
// (PUT a new endpoint, then test). A changed destination now drops the stored secret unless the
// same request supplies it again (docs/security.md, "Secrets stay bound to where they go").
jest.setTimeout(120_000);

const ROUTING_KEY = 'R0UTING-KEY-SECRET-9d2e';
const EXPORTER_AUTH = 'Bearer exporter-secret-51c0';

describe(`stored secrets never follow a changed destination (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let admin: TestAccount;
  let legit: Receiver;
  let attacker: Receiver;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerAccount(t.app);
    admin = await registerAccount(t.app);
    await addToWorkspace(t.app, owner.workspaceId, admin, 'admin');
    legit = await startReceiver([{ status: 202 }]);
    attacker = await startReceiver([{ status: 202 }]);
  });
  afterAll(async () => {
    await t.close();
    await legit.close();
    await attacker.close();
  });

  const ws = () => `/api/v1/workspaces/${owner.workspaceId}`;
  const call = (who: TestAccount, method: 'POST' | 'PUT', url: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method, url, headers: bearer(who.accessToken), payload });
  const leakedToAttacker = () => JSON.stringify(attacker.requests);

  it('drops a PagerDuty routing key sent with a new eventsUrl, in a test and in a save', async () => {
    const created = await call(owner, 'POST', `${ws()}/integrations`, {
      kind: 'pagerduty',
      name: 'On call',
      config: { routingKey: ROUTING_KEY, eventsUrl: legit.url },
      rules: { types: [], minSeverity: 'error' },
    });
    expect(created.statusCode).toBe(201);
    const integration = created.json<{ id: string; config: { routingKey: string } }>();
    expect(integration.config.routingKey.startsWith(MASK)).toBe(true);

    const repointed = { routingKey: integration.config.routingKey, eventsUrl: attacker.url };
    const tested = await call(admin, 'POST', `${ws()}/integrations/${integration.id}/test`, { config: repointed });
    expect(tested.statusCode).toBe(400);
    expect(tested.json().fields).toHaveProperty(['config.routingKey']);
    const saved = await call(admin, 'PUT', `${ws()}/integrations/${integration.id}`, { config: repointed });
    expect(saved.statusCode).toBe(400);
    // Saved unchanged: the stored key still goes to the stored destination only.
    const again = await call(admin, 'POST', `${ws()}/integrations/${integration.id}/test`, {});
    expect(again.json()).toMatchObject({ ok: true });
    expect(legit.requests.at(-1)?.body).toContain(ROUTING_KEY);
    expect(attacker.requests).toHaveLength(0);

    // The same destination keeps the masked key; a new one with a key spelled out is fine.
    const sameDestination = await call(admin, 'PUT', `${ws()}/integrations/${integration.id}`, {
      config: { routingKey: integration.config.routingKey, eventsUrl: legit.url },
    });
    expect(sameDestination.statusCode).toBe(200);
    const ownKey = await call(admin, 'PUT', `${ws()}/integrations/${integration.id}`, {
      config: { routingKey: 'admins-own-key', eventsUrl: attacker.url },
    });
    expect(ownKey.statusCode).toBe(200);
    await call(admin, 'POST', `${ws()}/integrations/${integration.id}/test`, {});
    expect(leakedToAttacker()).toContain('admins-own-key');
    expect(leakedToAttacker()).not.toContain(ROUTING_KEY);
  });

  it("drops an exporter's stored headers when its endpoint changes", async () => {
    const created = await call(owner, 'POST', `${ws()}/telemetry/exporters`, {
      name: 'Collector',
      endpoint: legit.url,
      headers: { Authorization: EXPORTER_AUTH },
      signals: ['traces'],
    });
    expect(created.statusCode).toBe(201);
    const exporter = created.json<{ id: string; headers: Record<string, string> }>();

    // Repointed with the masked value sent back, then without headers at all.
    const masked = await call(admin, 'PUT', `${ws()}/telemetry/exporters/${exporter.id}`, {
      endpoint: attacker.url,
      headers: exporter.headers,
    });
    expect(masked.statusCode).toBe(200);
    await call(admin, 'POST', `${ws()}/telemetry/exporters/${exporter.id}/test`);
    await call(admin, 'PUT', `${ws()}/telemetry/exporters/${exporter.id}`, { endpoint: legit.url });
    await call(admin, 'PUT', `${ws()}/telemetry/exporters/${exporter.id}`, { endpoint: attacker.url });
    await call(admin, 'POST', `${ws()}/telemetry/exporters/${exporter.id}/test`);
    expect(attacker.requests.length).toBeGreaterThanOrEqual(2);
    expect(attacker.requests.map((r) => r.headers.authorization)).not.toContain(EXPORTER_AUTH);
  });
});
