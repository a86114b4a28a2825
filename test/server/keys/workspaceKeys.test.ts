import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';
import { bearer, joinWorkspace, registerAccount, type TestAccount } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import type { WorkspaceKeyDto } from '../../../src/contract/keys';

// Workspace keys: write-only named secrets, resolved into upstream headers per request.
jest.setTimeout(120_000);

describe(`workspace keys (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let member: TestAccount;

  const api = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    who: TestAccount = t.account,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1/workspaces/${t.account.workspaceId}${url}`,
      headers: bearer(who.accessToken),
      ...(payload ? { payload } : {}),
    });
  const callEcho = async (url: URL) => {
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url));
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    await client.close();
  };
  const lastAuthorization = () => upstream.requests[upstream.requests.length - 1].authorization;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    t = await startProxyApp();
    member = await registerAccount(t.app);
    await joinWorkspace(t.app, t.account, t.account.workspaceId, member, 'member');
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('resolves {{key:NAME}} in upstream headers per request, so a rotation applies to the next request', async () => {
    const created = await api('POST', '/keys', {
      name: 'GITHUB_TOKEN',
      value: 'ghp_first',
      description: 'read-only token',
      allowedHosts: ['127.0.0.1'],
    });
    expect(created.statusCode).toBe(201);
    const key = created.json<WorkspaceKeyDto>();
    expect(JSON.stringify(key)).not.toContain('ghp_first');
    const { proxyUrl, server } = await t.register(upstream.url, {
      headers: { Authorization: 'Bearer {{key:GITHUB_TOKEN}}' },
    });

    await callEcho(proxyUrl);
    expect(lastAuthorization()).toBe('Bearer ghp_first');
    const rotated = await api('PUT', `/keys/${key.id}`, { value: 'ghp_second' });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.body).not.toContain('ghp_second');
    await callEcho(proxyUrl);
    expect(lastAuthorization()).toBe('Bearer ghp_second');

    const listed = await api('GET', '/keys');
    expect(listed.body).not.toContain('ghp_');
    expect((listed.json().keys as WorkspaceKeyDto[]).find((k) => k.id === key.id)).toMatchObject({
      name: 'GITHUB_TOKEN',
      description: 'read-only token',
      allowedHosts: ['127.0.0.1'],
      lastUsedAt: expect.any(String),
      usedBy: [{ id: server.id, name: 'upstream' }],
    });
    const stored = await t.database.db.query('select * from workspace_keys where id = $1', [key.id]);
    expect(JSON.stringify(stored)).not.toContain('ghp_');
  });

  it('refuses to delete a referenced key, naming the servers; deletes it once unreferenced', async () => {
    const key = (
      await api('POST', '/keys', { name: 'SEARCH_KEY', value: 'sk-1', allowedHosts: ['127.0.0.1'] })
    ).json<WorkspaceKeyDto>();
    const { server } = await t.register(upstream.url, {
      name: 'search engine',
      headers: { 'X-Api-Key': '{{key:SEARCH_KEY}}' },
    });
    const refused = await api('DELETE', `/keys/${key.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'The key SEARCH_KEY is used by the server search engine. Remove it from their headers first.',
    );
    expect((await api('GET', '/keys')).json().keys.map((k: WorkspaceKeyDto) => k.name)).toContain('SEARCH_KEY');

    await api('PUT', `/servers/${server.id}`, { headers: {} });
    expect((await api('DELETE', `/keys/${key.id}`)).statusCode).toBe(204);
    expect((await api('GET', '/keys')).json().keys.map((k: WorkspaceKeyDto) => k.name)).not.toContain('SEARCH_KEY');
  });

  it('refuses bad input and members, changing nothing', async () => {
    const before = (await api('GET', '/keys')).json().keys.length;
    expect((await api('POST', '/keys', { name: '1BAD', value: 'v' })).statusCode).toBe(400);
    expect((await api('POST', '/keys', { name: 'GOOD', value: '' })).statusCode).toBe(400);
    expect((await api('POST', '/keys', { name: 'GOOD', value: 'a\nb' })).statusCode).toBe(400);
    expect((await api('POST', '/keys', { name: 'GITHUB_TOKEN', value: 'dup' })).statusCode).toBe(409);
    expect((await api('POST', '/keys', { name: 'MINE', value: 'v' }, member)).statusCode).toBe(403);
    expect((await api('GET', '/keys', undefined, member)).statusCode).toBe(200);
    const unknownRef = await api('POST', '/servers', {
      url: upstream.url,
      name: 'typo',
      headers: { Authorization: 'Bearer {{key:NO_SUCH_KEY}}' },
    });
    expect(unknownRef.statusCode).toBe(400);
    expect(unknownRef.json().message).toBe('headers: Unknown workspace key NO_SUCH_KEY');
    expect((await api('GET', '/keys')).json().keys.length).toBe(before);
    const stranger = await registerAccount(t.app);
    const key = (await api('GET', '/keys')).json().keys[0] as WorkspaceKeyDto;
    const theirs = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${stranger.workspaceId}/keys/${key.id}`,
      headers: bearer(stranger.accessToken),
      payload: { value: 'stolen' },
    });
    expect(theirs.statusCode).toBe(404);
  });
});
