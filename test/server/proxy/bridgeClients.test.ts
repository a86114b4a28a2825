// Real CLIs as child processes beside a real proxy and database: seconds each on a loaded machine.
jest.setTimeout(120_000);

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startConformanceFixture, type ConformanceFixture } from './support/conformanceSuite';

// Issue 37: two clients nobody here wrote, as users run them, see through the proxy what they see
// directly: mcp-remote (the stdio↔HTTP bridge desktop apps launch) with an SDK client behind it,
// and the Inspector CLI (`--method …`, one process per request). The upstream is the conformance
// fixture (test/fixtures/conformanceServer): content of every type, progress, sampling, elicitation.
const ROOT = path.resolve(__dirname, '../../..');
const MCP_REMOTE = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');
// Inspector CLI 1.0.3 finds its own package.json with a path relative to the working directory
// (existsSync) but imports it relative to its module: it works when started from its build folder.
const INSPECTOR_DIR = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');
const run = promisify(execFile);

let fixture: ConformanceFixture;
let t: ProxyTestApp;
let proxyUrl: URL;
let serverId: string;
let configDir: string;
beforeAll(async () => {
  configDir = mkdtempSync(path.join(os.tmpdir(), 'toolscope-mcp-remote-'));
  fixture = await startConformanceFixture();
  t = await startProxyApp();
  ({
    proxyUrl,
    server: { id: serverId },
  } = await t.register(fixture.url));
});
afterAll(async () => {
  await (t as ProxyTestApp | undefined)?.close();
  await (fixture as ConformanceFixture | undefined)?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

/** The clients whose tool calls the proxy recorded on the fixture's server. */
async function recordedCalls() {
  await t.app.recorder.flush();
  return t.database.db.query<{ client_name: string; tool_name: string; status: string }>(
    `select sessions.client_name, tool_calls.tool_name, tool_calls.status
       from tool_calls join sessions on sessions.id = tool_calls.session_id
      where tool_calls.server_id = $1 order by tool_calls.started_at`,
    [serverId],
  );
}

describe('mcp-remote 0.15.1 through the proxy', () => {
  async function observe(url: string) {
    const client = new Client(
      { name: 'desktop-app', version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: {} } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled by the desktop app' },
      model: 'test-model',
    }));
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { response: 'yes' } }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, url, '--transport', 'http-only'],
      // Its OAuth state goes to a folder of the test's own, never the user's ~/.mcp-auth.
      env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir },
      stderr: 'ignore',
    });
    await client.connect(transport);
    try {
      return {
        tools: await client.listTools(),
        text: await client.callTool({ name: 'test_multiple_content_types', arguments: {} }),
        // Progress is not compared: through mcp-remote it reaches the client partly even directly
        // (in one run 1 of 3 notifications directly, 0 through the proxy; the cause is not known).
        progressed: await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
          onprogress: () => undefined,
        }),
        sampling: await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } }),
        elicitation: await client.callTool({ name: 'test_elicitation', arguments: { message: 'ok?' } }),
        failure: await client.callTool({ name: 'test_error_handling', arguments: {} }),
        resource: await client.readResource({ uri: 'test://static-binary' }),
        prompt: await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } }),
      };
    } finally {
      await client.close();
    }
  }

  it('bridges tools, sampling, elicitation, resources and prompts as it does directly', async () => {
    const direct = await observe(fixture.url);
    const proxied = await observe(proxyUrl.href);
    expect(proxied).toEqual(direct);
    expect(proxied.sampling.content).toEqual([{ type: 'text', text: 'LLM response: sampled by the desktop app' }]);
    expect((await recordedCalls()).filter((call) => call.client_name.includes('mcp-remote'))).toEqual(
      [
        'test_multiple_content_types',
        'test_tool_with_progress',
        'test_sampling',
        'test_elicitation',
        'test_error_handling',
      ].map((tool_name) => ({
        client_name: 'desktop-app (via mcp-remote 0.15.1)',
        tool_name,
        status: tool_name === 'test_error_handling' ? 'error' : 'ok',
      })),
    );
  });
});

describe('the Inspector CLI 1.0.3 through the proxy', () => {
  /** One CLI run per request, as the Inspector's --cli mode works; its stdout is the JSON result. */
  async function inspect(url: string, args: string[]): Promise<unknown> {
    const { stdout } = await run(process.execPath, ['index.js', url, '--transport', 'http', ...args], {
      cwd: INSPECTOR_DIR,
    });
    return JSON.parse(stdout);
  }
  const requests = [
    ['--method', 'tools/list'],
    ['--method', 'tools/call', '--tool-name', 'test_image_content'],
    ['--method', 'tools/call', '--tool-name', 'json_schema_2020_12_tool', '--tool-arg', 'name=ada'],
    ['--method', 'resources/read', '--uri', 'test://template/42/data'],
    ['--method', 'prompts/get', '--prompt-name', 'test_prompt_with_image'],
  ];

  it('lists, calls, reads and gets with the same answers as directly', async () => {
    const [direct, proxied] = await Promise.all([
      Promise.all(requests.map((args) => inspect(fixture.url, args))),
      Promise.all(requests.map((args) => inspect(proxyUrl.href, args))),
    ]);
    expect(proxied).toEqual(direct);
    expect(proxied[2]).toEqual({ content: [{ type: 'text', text: 'called with {"name":"ada"}' }] });
    const inspectorCalls = (await recordedCalls()).filter((call) => call.client_name === 'inspector-cli');
    expect(inspectorCalls.map((call) => call.tool_name).sort()).toEqual([
      'json_schema_2020_12_tool',
      'test_image_content',
    ]);
  });
});
