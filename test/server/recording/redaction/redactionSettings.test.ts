import type { RedactionSettingsDto, RedactionTestResult } from '../../../../src/contract/redaction';
import { bearer, registerAccount, type TestAccount } from '../../helpers/accounts';
import { buildTestApp, type TestApp } from '../../helpers/testApp';
import { engineName } from '../../helpers/testDatabase';
import type { JsonRpcMessage } from '../../../../src/server/proxy/jsonRpc';
import { addToWorkspace } from '../../helpers/workspaceMembers';
import { CORPUS } from '../../helpers/redactionCorpus';

// The settings routes (docs/security.md "Redaction"): the defaults, who may change them, what is
// refused with a 400 a user can act on, and "test a sample" with custom patterns, JSON paths
// scoped to a tool, the allowlist and keyed hashes.
jest.setTimeout(60_000);

describe(`redaction settings (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let member: TestAccount;
  const url = () => `/api/v1/workspaces/${owner.workspaceId}/redaction`;
  const as = (who: TestAccount, method: 'GET' | 'PUT' | 'POST', path: string, payload?: unknown) =>
    t.app.inject({ method, url: path, headers: bearer(who.accessToken), ...(payload ? { payload } : {}) });
  const empty = { rules: [], customPatterns: [], paths: [], allowlist: [] };

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerAccount(t.app);
    member = await registerAccount(t.app);
    await addToWorkspace(t.app, owner.workspaceId, member, 'member');
  });
  afterAll(() => t.close());

  it('starts with the secret rules on and the personal-data rules off', async () => {
    const res = await as(member, 'GET', url());
    expect(res.statusCode).toBe(200);
    const settings = res.json<RedactionSettingsDto>();
    expect(settings.updatedAt).toBeNull();
    for (const rule of settings.rules) expect(rule.enabled).toBe(rule.category === 'secret');
    expect(settings.rules.find((rule) => rule.id === 'github-pat')?.source).toMatch(/^gitleaks /);
  });

  it('lets a member test a sample but not change the rules', async () => {
    const sample = await as(member, 'POST', `${url()}/test`, { sample: 'key AKIAZ2X7QWERTYZ23456 mail a@example.com' });
    expect(sample.statusCode).toBe(200);
    const result = sample.json<RedactionTestResult>();
    expect(result.stored).toContain('[REDACTED:aws-access-token]');
    expect(result.stored).toContain('a@example.com');
    expect(result.matches).toEqual([{ rule: 'aws-access-token', count: 1 }]);
    const change = await as(member, 'PUT', url(), empty);
    expect(change.statusCode).toBe(403);
    expect(change.json().message).toBe('Only workspace owners and admins can change redaction rules');
  });

  it('refuses a custom pattern that could backtrack, one that does not compile, or one that matches nothing', async () => {
    const refused = async (pattern: string) => {
      const res = await as(owner, 'PUT', url(), { ...empty, customPatterns: [{ id: 'mine', pattern, hash: false }] });
      expect(res.statusCode).toBe(400);
      return res.json().message as string;
    };
    expect(await refused('(a)\\1')).toMatch(
      /^Pattern mine is refused: .*RE2 syntax \(no backreferences or lookaround\)/,
    );
    expect(await refused('x(?=y)')).toMatch(/^Pattern mine is refused/);
    expect(await refused('(unclosed')).toMatch(/^Pattern mine is refused/);
    expect(await refused('a*')).toBe('Pattern mine matches the empty text: it must match at least one character');
    const unknown = await as(owner, 'PUT', url(), { ...empty, rules: [{ id: 'nope', enabled: true, hash: false }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown redaction rule: nope');
  });

  it('applies custom patterns, tool-scoped paths, the allowlist and keyed hashes once saved', async () => {
    const token = CORPUS['github-pat'].positives[0].value;
    const saved = await as(owner, 'PUT', url(), {
      rules: [
        { id: 'github-pat', enabled: true, hash: true },
        { id: 'email-address', enabled: true, hash: false },
      ],
      customPatterns: [{ id: 'internal-id', pattern: 'acct-(\\d{6})', hash: false }],
      paths: [{ path: 'arguments.note' }, { path: 'result.content[*].text', tool: 'secrets' }],
      allowlist: ['public@example.com'],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<RedactionSettingsDto>().updatedAt).not.toBeNull();
    const sample = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'lookup',
        arguments: {
          who: 'jane@example.com public@example.com',
          id: 'acct-123456',
          note: { any: 'thing' },
          a: token,
          b: token,
        },
      },
    };
    const res = await as(owner, 'POST', `${url()}/test`, { sample: JSON.stringify(sample) });
    const stored = JSON.parse(res.json<RedactionTestResult>().stored);
    const args = stored.params.arguments;
    expect(args.who).toBe('[REDACTED:email-address] public@example.com');
    expect(args.id).toBe('acct-[REDACTED:internal-id]');
    expect(args.note).toBe('[REDACTED:path]');
    // Equal values correlate without being stored.
    expect(args.a).toMatch(/^\[REDACTED:github-pat:[0-9a-f]{12}\]$/);
    expect(args.b).toBe(args.a);

    const answer = (tool: string) =>
      as(owner, 'POST', `${url()}/test`, {
        sample: JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'plain words' }] } }),
        tool,
      });
    expect(JSON.parse((await answer('secrets')).json().stored).result.content[0].text).toBe('[REDACTED:path]');
    expect(JSON.parse((await answer('other')).json().stored).result.content[0].text).toBe('plain words');
  });

  it('tries unsaved settings without saving them', async () => {
    const res = await as(owner, 'POST', `${url()}/test`, {
      sample: 'call +44 20 7946 0958',
      settings: { ...empty, rules: [{ id: 'phone-number', enabled: true, hash: false }] },
    });
    expect(res.json<RedactionTestResult>().stored).toContain('[REDACTED:phone-number]');
    const saved = (await as(owner, 'GET', url())).json<RedactionSettingsDto>();
    expect(saved.rules.find((rule) => rule.id === 'phone-number')?.enabled).toBe(false);
  });

  if (engineName === 'postgres') {
    it("a change saved on one instance reaches the other instances' recorders", async () => {
      const other = await buildTestApp({ healthIntervalMs: 3_600_000 }, t.database);
      try {
        const message: JsonRpcMessage = {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'x', arguments: { mail: 'someone@example.com' } },
        };
        const stored = () => JSON.stringify(other.app.redaction.forWorkspace(owner.workspaceId).redactMessage(message));
        const saveEmail = (enabled: boolean) =>
          as(owner, 'PUT', url(), { ...empty, rules: [{ id: 'email-address', enabled, hash: false }] });
        expect((await saveEmail(false)).statusCode).toBe(200);
        await until(() => !stored().includes('[REDACTED:email-address]'));
        expect((await saveEmail(true)).statusCode).toBe(200);
        await until(() => stored().includes('[REDACTED:email-address]'));
      } finally {
        await other.app.close();
      }
    });
  }
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
