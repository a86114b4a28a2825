import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';
import { bearer, joinWorkspace, registerAccount, type TestAccount } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import type { WorkspaceKeyDto } from '../../../src/contract/keys';
import { encryptCredentials } from '../../../src/server/data/servers/credentials';
import { sealKeyValue } from '../../../src/server/data/keys/workspaceKeyStore';
import { bindLegacyKeyHosts } from '../../../src/server/data/keys/legacyKeyHosts';

// Issue 31 item 2, last part: an admin who did not create a workspace key pointed a new server at
// their own listener with `X-Leak: {{key:NAME}}` and received the key on the health check. A key
// now carries the hosts it may be sent to (set at creation; an owner changes them): a reference
// from a server elsewhere is refused at save, and left out at send.
jest.setTimeout(120_000);

describe(`workspace keys go only to their hosts (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream; // the key's rightful destination, at 127.0.0.1
  let listener: SdkUpstream; // the admin's receiver (the same machine, reached as "localhost")
  let admin: TestAccount;
  let key: WorkspaceKeyDto;

  const api = (who: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/workspaces/${t.account.workspaceId}${url}`,
      headers: bearer(who.accessToken),
      ...(payload ? { payload } : {}),
    });
  const received = (server: SdkUpstream) => JSON.stringify(server.requests);
  const callEcho = async (url: URL) => {
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url));
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    await client.close();
  };

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    listener = await startStreamableUpstream({ json: true, stateful: true });
    t = await startProxyApp();
    admin = await registerAccount(t.app);
    await joinWorkspace(t.app, t.account, t.account.workspaceId, admin, 'admin');
    const created = await api(t.account, 'POST', '/keys', {
      name: 'VENDOR_TOKEN',
      value: 'vendor-secret-4750',
      allowedHosts: ['127.0.0.1'],
    });
    expect(created.statusCode).toBe(201);
    key = created.json<WorkspaceKeyDto>();
    expect(key.allowedHosts).toEqual(['127.0.0.1']);
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
    await listener.close();
  });

  it('refuses a server elsewhere that references the key, at save, and the listener never receives it', async () => {
    const elsewhere = listener.url.replace('127.0.0.1', 'localhost');
    const refused = await api(admin, 'POST', '/servers', {
      name: 'leak',
      url: elsewhere,
      headers: { 'X-Leak': '{{key:VENDOR_TOKEN}}' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'headers: Workspace key VENDOR_TOKEN may not be sent to localhost: an owner can add the host to the key',
    );
    // Moving an existing server there with the reference: refused the same way.
    const { server } = await t.register(upstream.url, { headers: { Authorization: 'Bearer {{key:VENDOR_TOKEN}}' } });
    const moved = await api(admin, 'PUT', `/servers/${server.id}`, {
      url: elsewhere,
      headers: { Authorization: 'Bearer {{key:VENDOR_TOKEN}}' },
    });
    expect(moved.statusCode).toBe(400);
    expect(received(listener)).not.toContain('vendor-secret-4750');
  });

  it('lets only an owner change where a key goes, and a send outside its hosts goes without it', async () => {
    const widen = await api(admin, 'PUT', `/keys/${key.id}/hosts`, { allowedHosts: ['127.0.0.1', 'localhost'] });
    expect(widen.statusCode).toBe(403);
    const { proxyUrl } = await t.register(upstream.url, { headers: { Authorization: 'Bearer {{key:VENDOR_TOKEN}}' } });
    await callEcho(proxyUrl);
    expect(upstream.requests.at(-1)?.authorization).toBe('Bearer vendor-secret-4750');
    // The owner narrows the key: the next request to 127.0.0.1 goes without it (refused at send).
    const narrowed = await api(t.account, 'PUT', `/keys/${key.id}/hosts`, { allowedHosts: ['api.vendor.example'] });
    expect(narrowed.statusCode).toBe(200);
    expect(narrowed.json<WorkspaceKeyDto>().allowedHosts).toEqual(['api.vendor.example']);
    await callEcho(proxyUrl);
    expect(upstream.requests.at(-1)?.authorization).toBeUndefined();
    // A port-bound entry admits that port only.
    const port = new URL(upstream.url).port;
    await api(t.account, 'PUT', `/keys/${key.id}/hosts`, { allowedHosts: [`127.0.0.1:${port}`] });
    await callEcho(proxyUrl);
    expect(upstream.requests.at(-1)?.authorization).toBe('Bearer vendor-secret-4750');
    const audit = await api(t.account, 'GET', '/audit');
    expect(audit.json<{ events: { action: string }[] }>().events.map((e) => e.action)).toContain(
      'workspace_key.hosts_changed',
    );
  });

  it('binds keys from before hosts existed to the hosts of the servers that use them, and nothing else', async () => {
    const db = t.database.db;
    const [legacy] = await db.query<{ id: string }>(
      `insert into workspace_keys (workspace_id, name, description, value_enc) values ($1, 'LEGACY', '', $2) returning id`,
      [t.account.workspaceId, sealKeyValue('legacy-secret', t.config.secret)],
    );
    await db.query(
      `insert into workspace_keys (workspace_id, name, description, value_enc) values ($1, 'UNUSED', '', $2)`,
      [t.account.workspaceId, sealKeyValue('unused-secret', t.config.secret)],
    );
    await db.query(
      `insert into servers (workspace_id, name, url, credentials_enc, proxy_key) values ($1, 'old', 'http://Old.Example:9000/mcp', $2, 'legacy-proxy-key')`,
      [t.account.workspaceId, encryptCredentials({ 'X-Key': '{{key:LEGACY}}' }, t.config.secret)],
    );
    expect(await bindLegacyKeyHosts(db, t.config.secret)).toBe(2);
    const rows = await db.query<{ name: string; allowed_hosts: string[] }>(
      `select name, allowed_hosts from workspace_keys where name in ('LEGACY', 'UNUSED') order by name`,
    );
    expect(rows).toEqual([
      { name: 'LEGACY', allowed_hosts: ['old.example'] },
      { name: 'UNUSED', allowed_hosts: [] },
    ]);
    expect(legacy.id).toBeDefined();
    expect(await bindLegacyKeyHosts(db, t.config.secret)).toBe(0);
  });
});
