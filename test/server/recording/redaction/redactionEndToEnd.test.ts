import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { buildApp, type App } from '../../../../src/server/app';
import { generateSecret, loadConfig } from '../../../../src/server/config';
import { serverLoggerOptions } from '../../../../src/server/http/logRedaction';
import type { RedactionSettingsDto } from '../../../../src/contract/redaction';
import type { ServerDto } from '../../../../src/contract/servers';
import { BUILTIN_RULES } from '../../../../src/server/recording/redaction/builtinRules';
import { bearer, registerAccount, type TestAccount } from '../../helpers/accounts';
import { openTestDatabase, engineName, type TestDatabase } from '../../helpers/testDatabase';
import { CORPUS } from '../../helpers/redactionCorpus';
import { startStreamableUpstream, type SdkUpstream } from '../../proxy/support/sdkUpstream';
import { startReceiver, type Receiver } from '../../integrations/receiver';

// Issue 35's proof, through the real proxy with the official SDK client: one call whose arguments
// and result hold a value of every rule (all rules on), one failing call, one refused request.
// The agent gets every original; the journal's files, every database table as text, the replay
// and activity APIs, the live stream, an OTLP export, a webhook delivery and the server log hold
// none of them.
jest.setTimeout(180_000);

const values = Object.entries(CORPUS).map(([rule, entry]) => ({ rule, ...entry.positives[0] }));
const plainValues = values.filter(({ rule }) => CORPUS[rule].byKey === undefined);
const keyed = Object.fromEntries(
  values.filter(({ rule }) => CORPUS[rule].byKey !== undefined).map(({ rule, value }) => [CORPUS[rule].byKey!, value]),
);
const allText = plainValues.map(({ text }) => text).join(' | ');

/** How a value may show up in stored text: as is, JSON-escaped (once or twice), or its longest plain run. */
function needles(value: string): string[] {
  const once = JSON.stringify(value).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  const longestRun = (value.match(/[A-Za-z0-9]{16,}/g) ?? []).sort((a, b) => b.length - a.length)[0];
  return [...new Set([value, once, twice, ...(longestRun ? [longestRun] : [])])];
}

function leaks(where: string, text: string): string[] {
  return values.flatMap(({ rule, value }) =>
    needles(value).some((needle) => text.includes(needle)) ? [`${where}: ${rule}`] : [],
  );
}

function vaultServer(): McpServer {
  const server = new McpServer({ name: 'vault', version: '1.0.0' });
  const args = { text: z.string(), nested: z.unknown(), dbPassword: z.string(), client_secret: z.string() };
  server.registerTool('vault', { description: 'Gives back what it got', inputSchema: args }, (input) =>
    Promise.resolve({
      content: [
        { type: 'text', text: JSON.stringify(input) },
        { type: 'text', text: `plain: ${input.text}` },
      ],
    }),
  );
  server.registerTool('vault_error', { description: 'Fails, quoting what it got', inputSchema: args }, (input) =>
    Promise.resolve({ content: [{ type: 'text', text: `refused: ${input.text}` }], isError: true }),
  );
  // A prompt, so an unknown prompt's name comes back in the upstream's error text.
  server.registerPrompt('greet', { description: 'A greeting' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
  }));
  return server;
}

async function startOtlpReceiver() {
  const bodies: Buffer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function until<T>(probe: () => Promise<T | undefined | false> | T | undefined | false): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`redaction before storage, end to end (${engineName})`, () => {
  let database: TestDatabase;
  let app: App;
  let account: TestAccount;
  let upstream: SdkUpstream;
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let hook: Receiver;
  let journalDir: string;
  const logLines: string[] = [];
  const live: string[] = [];
  const api = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: bearer(account.accessToken), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    database = await openTestDatabase();
    journalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-redaction-journal-'));
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig(
      {},
      {
        secret: generateSecret(),
        clientDir: undefined,
        journalDir,
        // Rows stay in the journal (not yet in the database) until the test flushes: its files can be read.
        recorderFlushMs: 3_600_000,
        authRateLimitPerMinute: 10_000,
        healthIntervalMs: 3_600_000,
        telemetryMetricsIntervalMs: 400,
      },
    );
    app = await buildApp({ config, db: database.db, logger: serverLoggerOptions('trace', stream) });
    await app.ready();
    await app.listen({ port: 0, host: '127.0.0.1' });
    account = await registerAccount(app);
    app.bus.subscribeAll((_workspace, message) => live.push(JSON.stringify(message)));
    upstream = await startStreamableUpstream({ json: false, stateful: true, build: vaultServer });
    otlp = await startOtlpReceiver();
    hook = await startReceiver();
  });
  afterAll(async () => {
    app.server.closeAllConnections();
    await app.close();
    await database.drop();
    await upstream.close();
    await otlp.close();
    await hook.close();
    fs.rmSync(journalDir, { recursive: true, force: true });
  });

  it('the agent gets every original; nothing Toolscope keeps or sends holds one', async () => {
    const ws = account.workspaceId;
    // Every rule on (personal data too), the GitHub token hashed.
    const settings = await api('PUT', `/api/v1/workspaces/${ws}/redaction`, {
      rules: BUILTIN_RULES.map((rule) => ({ id: rule.id, enabled: true, hash: rule.id === 'github-pat' })),
      customPatterns: [],
      paths: [],
      allowlist: [],
    });
    expect(settings.statusCode).toBe(200);
    expect(settings.json<RedactionSettingsDto>().rules.every((rule) => rule.enabled)).toBe(true);
    expect(
      (
        await api('POST', `/api/v1/workspaces/${ws}/telemetry/exporters`, {
          name: 'c',
          endpoint: otlp.url,
          protocol: 'http/protobuf',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await api('PUT', `/api/v1/workspaces/${ws}/notification-settings`, { sessionMinCalls: 1 })).statusCode,
    ).toBe(200);
    expect(
      (
        await api('POST', `/api/v1/workspaces/${ws}/integrations`, {
          kind: 'webhook',
          name: 'hook',
          config: { url: hook.url },
          rules: { types: [], minSeverity: 'info' },
        })
      ).statusCode,
    ).toBe(201);
    const registered = await api('POST', `/api/v1/workspaces/${ws}/servers`, { url: upstream.url, name: 'vault' });
    expect(registered.statusCode).toBe(201);
    const proxyUrl = new URL(
      new URL(registered.json<ServerDto>().proxyUrl).pathname,
      `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    );

    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    const args = { text: allText, nested: { deep: [{ json: JSON.stringify({ all: allText, ...keyed }) }] }, ...keyed };
    const result = await client.callTool({ name: 'vault', arguments: args });
    const received = JSON.stringify(result);
    // The agent got the exact originals: the proxy never changes traffic.
    for (const { value } of values) expect(received).toContain(JSON.stringify(value).slice(1, -1));
    const failed = await client.callTool({ name: 'vault_error', arguments: args });
    expect(failed.isError).toBe(true);
    const token = CORPUS['github-pat'].positives[0].value;
    await expect(client.getPrompt({ name: `prompt-${token}` })).rejects.toThrow(token);
    await client.close();

    // The journal, before the rows reach the database.
    const journalText = fs
      .readdirSync(journalDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
      .join('\n');
    expect(journalText).toContain('[REDACTED:github-pat:');
    expect(leaks('journal', journalText)).toEqual([]);

    await app.recorder.flush();
    const tables = await database.db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    let databaseText = '';
    for (const { table_name } of tables) {
      const rows = await database.db.query<{ t: string }>(`select t::text as t from "${table_name}" t`);
      databaseText += rows.map((row) => row.t).join('\n');
    }
    expect(databaseText).toContain('[REDACTED:private-key]');
    expect(leaks('database', databaseText)).toEqual([]);

    const sessions = (await api('GET', `/api/v1/workspaces/${ws}/sessions`)).json<{ sessions: { id: string }[] }>();
    const replay = await api('GET', `/api/v1/workspaces/${ws}/sessions/${sessions.sessions[0].id}/replay`);
    expect(replay.statusCode).toBe(200);
    expect(replay.body).toContain('[REDACTED:');
    expect(leaks('replay', replay.body)).toEqual([]);
    const activity = await api('GET', `/api/v1/workspaces/${ws}/sessions/activity-stream`);
    expect(leaks('activity', activity.body)).toEqual([]);
    const liveCalls = await api('GET', `/api/v1/workspaces/${ws}/tool-calls/live`);
    expect(leaks('tool calls', liveCalls.body)).toEqual([]);
    expect(live.join('\n')).toContain('[REDACTED:');
    expect(leaks('live stream', live.join('\n'))).toEqual([]);

    const spans = await until(() => {
      const text = otlp.bodies.map((body) => body.toString('latin1')).join('\n');
      return text.includes('tools/call vault_error') && text.includes('prompts/get') && text;
    });
    expect(leaks('OTLP export', spans)).toEqual([]);
    const deliveries = await hook.waitForRequests(1, 60_000);
    expect(leaks('webhook', deliveries.map((d) => d.body).join('\n'))).toEqual([]);
    expect(leaks('server log', logLines.join(''))).toEqual([]);
  });
});
