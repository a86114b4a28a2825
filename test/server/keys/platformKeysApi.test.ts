jest.setTimeout(60_000);

import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, joinWorkspace, registerAccount, type TestAccount } from '../helpers/accounts';
import { isWellFormedPlatformKey } from '../../../src/server/auth/platformKeySecret';
import type { CreatedPlatformKeyDto, PlatformKeyDto } from '../../../src/contract/keys';

describe(`platform keys API (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let member: TestAccount;
  let admin: TestAccount;
  let stranger: TestAccount;
  let serverId: string;
  let strangerServerId: string;

  const keysUrl = (ws = owner.workspaceId) => `/api/v1/workspaces/${ws}/platform/keys`;
  const call = (who: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(who.accessToken), ...(payload ? { payload } : {}) });
  const registerServer = async (who: TestAccount, name: string) => {
    const res = await call(who, 'POST', `/api/v1/workspaces/${who.workspaceId}/servers`, {
      url: 'http://127.0.0.1:9/mcp',
      name,
    });
    return res.json().id as string;
  };

  beforeAll(async () => {
    t = await buildTestApp({ healthIntervalMs: 3_600_000 });
    owner = await registerAccount(t.app, { firstName: 'Grace', lastName: 'Hopper' });
    member = await registerAccount(t.app);
    admin = await registerAccount(t.app);
    stranger = await registerAccount(t.app);
    await joinWorkspace(t.app, owner, owner.workspaceId, member, 'member');
    await joinWorkspace(t.app, owner, owner.workspaceId, admin, 'admin');
    serverId = await registerServer(owner, 'search');
    strangerServerId = await registerServer(stranger, 'theirs');
  });
  afterAll(() => t.close());

  it('creates a key whose secret is shown once, checksummed, and only its hash is stored', async () => {
    const res = await call(owner, 'POST', keysUrl(), { name: 'CI agent' });
    expect(res.statusCode).toBe(201);
    const created = res.json<CreatedPlatformKeyDto>();
    expect(created.secret).toMatch(/^tsk_[0-9A-Za-z]{36}$/);
    expect(isWellFormedPlatformKey(created.secret)).toBe(true);
    expect(created).toMatchObject({
      name: 'CI agent',
      prefix: created.secret.slice(0, 12),
      scopes: { allServers: true, serverIds: [] },
      status: 'active',
      createdBy: owner.user.id,
      createdByName: 'Grace Hopper',
      lastUsedAt: null,
      revokedAt: null,
    });

    const listed = (await call(member, 'GET', keysUrl())).json().keys as PlatformKeyDto[];
    const shown = listed.find((k) => k.id === created.id)!;
    expect(shown.prefix).toBe(created.prefix);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const one = await call(member, 'GET', `${keysUrl()}/${created.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain(created.secret.slice(12));

    const stored = await t.database.db.query('select * from platform_keys where id = $1', [created.id]);
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice(4));
  });

  it('scopes a key to servers of its own workspace only', async () => {
    const ok = await call(owner, 'POST', keysUrl(), {
      name: 'scoped',
      scopes: { allServers: false, serverIds: [serverId] },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().scopes).toEqual({ allServers: false, serverIds: [serverId] });

    const before = (await call(owner, 'GET', keysUrl())).json().keys.length;
    for (const scopes of [
      { allServers: false, serverIds: [strangerServerId] },
      { allServers: false, serverIds: [randomUUID()] },
      { allServers: false, serverIds: [] },
      { allServers: false, serverIds: ['nope'] },
    ]) {
      const res = await call(owner, 'POST', keysUrl(), { name: 'bad', scopes });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/scopes\.serverIds/);
    }
    expect((await call(owner, 'GET', keysUrl())).json().keys.length).toBe(before);
  });

  it('refuses an empty name, a past expiry and a reason over 500 characters, changing nothing', async () => {
    expect((await call(owner, 'POST', keysUrl(), { name: '   ' })).statusCode).toBe(400);
    expect((await call(owner, 'POST', keysUrl(), { name: 'x', expiresAt: '2001-01-01T00:00:00Z' })).statusCode).toBe(
      400,
    );
    expect((await call(owner, 'POST', keysUrl(), { name: 'x', expiresAt: 'tomorrow' })).statusCode).toBe(400);
    const key = (await call(owner, 'POST', keysUrl(), { name: 'to keep' })).json<CreatedPlatformKeyDto>();
    const long = await call(owner, 'DELETE', `${keysUrl()}/${key.id}`, { reason: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/500/);
    expect((await call(owner, 'GET', `${keysUrl()}/${key.id}`)).json().status).toBe('active');
  });

  it('renames and changes scope and expiry with PUT', async () => {
    const key = (await call(owner, 'POST', keysUrl(), { name: 'old' })).json<CreatedPlatformKeyDto>();
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const res = await call(admin, 'PUT', `${keysUrl()}/${key.id}`, {
      name: 'new',
      scopes: { allServers: false, serverIds: [serverId] },
      expiresAt,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'new', scopes: { allServers: false, serverIds: [serverId] }, expiresAt });
    const cleared = await call(owner, 'PUT', `${keysUrl()}/${key.id}`, { expiresAt: null });
    expect(cleared.json().expiresAt).toBeNull();
  });

  it("revokes with the body's reason, or 'Revoked by user'; revoked keys stay listed and cannot be changed", async () => {
    const a = (await call(owner, 'POST', keysUrl(), { name: 'a' })).json<CreatedPlatformKeyDto>();
    const b = (await call(owner, 'POST', keysUrl(), { name: 'b' })).json<CreatedPlatformKeyDto>();
    const withReason = await call(owner, 'DELETE', `${keysUrl()}/${a.id}`, { reason: 'Leaked in a log' });
    expect(withReason.statusCode).toBe(200);
    expect(withReason.json()).toMatchObject({
      status: 'revoked',
      revokeReason: 'Leaked in a log',
      revokedAt: expect.any(String),
    });
    const noBody = await t.app.inject({
      method: 'DELETE',
      url: `${keysUrl()}/${b.id}`,
      headers: bearer(owner.accessToken),
    });
    expect(noBody.json()).toMatchObject({ status: 'revoked', revokeReason: 'Revoked by user' });
    const listed = (await call(owner, 'GET', keysUrl())).json().keys as PlatformKeyDto[];
    expect(listed.find((k) => k.id === a.id)).toMatchObject({ status: 'revoked', revokeReason: 'Leaked in a log' });
    // Revoking again keeps the first reason; changing a revoked key is refused.
    await call(owner, 'DELETE', `${keysUrl()}/${a.id}`, { reason: 'again' });
    expect((await call(owner, 'GET', `${keysUrl()}/${a.id}`)).json().revokeReason).toBe('Leaked in a log');
    expect((await call(owner, 'PUT', `${keysUrl()}/${a.id}`, { name: 'revived' })).statusCode).toBe(409);
  });

  it('lets members list but not manage keys', async () => {
    const key = (await call(owner, 'POST', keysUrl(), { name: 'guarded' })).json<CreatedPlatformKeyDto>();
    expect((await call(member, 'GET', keysUrl())).statusCode).toBe(200);
    expect((await call(member, 'POST', keysUrl(), { name: 'mine' })).statusCode).toBe(403);
    expect((await call(member, 'PUT', `${keysUrl()}/${key.id}`, { name: 'x' })).statusCode).toBe(403);
    expect((await call(member, 'DELETE', `${keysUrl()}/${key.id}`, {})).statusCode).toBe(403);
    expect((await call(owner, 'GET', `${keysUrl()}/${key.id}`)).json()).toMatchObject({
      name: 'guarded',
      status: 'active',
    });
    expect((await call(admin, 'POST', keysUrl(), { name: 'admin made' })).statusCode).toBe(201);
  });

  it("answers 404 for another workspace's keys and for non-members", async () => {
    const key = (await call(owner, 'POST', keysUrl(), { name: 'private' })).json<CreatedPlatformKeyDto>();
    expect((await call(stranger, 'GET', keysUrl())).statusCode).toBe(404);
    expect((await call(stranger, 'GET', `${keysUrl(stranger.workspaceId)}/${key.id}`)).statusCode).toBe(404);
    expect((await call(stranger, 'DELETE', `${keysUrl(stranger.workspaceId)}/${key.id}`, {})).statusCode).toBe(404);
    expect(
      (await call(stranger, 'PUT', `${keysUrl(stranger.workspaceId)}/${key.id}`, { name: 'mine now' })).statusCode,
    ).toBe(404);
    expect((await call(owner, 'GET', `${keysUrl()}/not-a-uuid`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', `${keysUrl()}/${key.id}`)).json()).toMatchObject({
      name: 'private',
      status: 'active',
    });
  });

  it('turns the require-a-key switch on and off for owners and admins only', async () => {
    const url = `/api/v1/workspaces/${owner.workspaceId}`;
    expect((await call(owner, 'GET', url)).json().requirePlatformKey).toBe(false);
    expect((await call(member, 'PUT', url, { requirePlatformKey: true })).statusCode).toBe(403);
    expect((await call(owner, 'PUT', url, { requirePlatformKey: 'yes' })).statusCode).toBe(400);
    const on = await call(admin, 'PUT', url, { requirePlatformKey: true });
    expect(on.statusCode).toBe(200);
    expect(on.json().requirePlatformKey).toBe(true);
    expect(t.app.agentAccess.requiresKey(owner.workspaceId)).toBe(true);
    expect((await call(owner, 'PUT', url, { requirePlatformKey: false })).json().requirePlatformKey).toBe(false);
    expect(t.app.agentAccess.requiresKey(owner.workspaceId)).toBe(false);
    expect((await call(stranger, 'PUT', url, { requirePlatformKey: true })).statusCode).toBe(404);
  });
});
