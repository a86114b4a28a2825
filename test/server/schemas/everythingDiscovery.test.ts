import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { createMemberWithWorkspace, insertServerRow } from '../monitor/support/workspaceFixture';
import { startEverything, type EverythingServer } from '../proxy/support/everything';

jest.setTimeout(90_000);

// Discovery against the reference MCP server (@modelcontextprotocol/server-everything): a real
// upstream with many tools, prompts and paged resources.
describe(`schemas: discovery of server-everything (${engineName})`, () => {
  let t: TestApp;
  let everything: EverythingServer;
  beforeAll(async () => {
    everything = await startEverything();
    t = await buildTestApp({ healthIntervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await (t as TestApp | undefined)?.close();
    await (everything as EverythingServer | undefined)?.stop();
  });

  it('stores every tool, prompt, resource and template it lists, following pages', async () => {
    const member = await createMemberWithWorkspace(t.database.db, t.config.secret, 'Eve');
    const serverId = await insertServerRow(t.database.db, member.workspaceId, {
      url: everything.url,
      name: 'Everything',
    });
    const result = await t.app.schemaDiscovery.discover(serverId);
    const byKind = (kind: string) => result.schemas.filter((s) => s.kind === kind).map((s) => s.name);
    expect(byKind('tool')).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(byKind('prompt').length).toBeGreaterThan(0);
    expect(byKind('resource').length).toBeGreaterThan(0);
    expect(result.schemaCount).toBe(result.schemas.length);
    expect(result.created).toBe(result.discovered);
    const [{ schema_count }] = await t.database.db.query<{ schema_count: number }>(
      'select schema_count from servers where id = $1',
      [serverId],
    );
    expect(schema_count).toBe(result.schemas.length);
  });
});
