// A real app, a real deployment of server-everything, Demo Ops and SDK clients: seconds on a loaded machine.
jest.setTimeout(180_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MessageDto, SessionDto, ToolCallDto } from '../../../src/contract/sessions';
import type { ActivityEvent } from '../../../src/contract/activity';
import type { NotificationDto } from '../../../src/contract/notifications';
import type { PatchListResult, SchemaListResult } from '../../../src/contract/schemas';
import { DemoApi, Paths } from '../../../src/demo/demoApi';
import { CREATE_TICKET_DESCRIPTIONS, startDemoOpsServer, type DemoOpsServer } from '../../../src/demo/demoOpsServer';
import {
  createDemoAccount,
  deployEverything,
  registerOpsServer,
  showOutage,
  showSchemaHistory,
  type DemoAccount,
  type DemoServer,
} from '../../../src/demo/demoSetup';
import { DEMO_CLIENTS, ScriptedAgent } from '../../../src/demo/scriptedAgent';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { waitFor } from '../deployments/support/processes';

// Issue 23: the demo's own steps and scripted agent against a started app, then every screen's API
// is asked whether it has something to show — sessions and replay, activity, tool reasoning, the
// schema studio's version with a patch (and the rollback), notifications — as the demo promises.
describe(`the demo's scripted agent fills every screen (${engineName})`, () => {
  let t: ProxyTestApp;
  let dataDir: string;
  let ops: DemoOpsServer;
  let api: DemoApi;
  let account: DemoAccount;
  let servers: { everything: DemoServer; ops: DemoServer };
  let agent: ScriptedAgent;
  const everythingEntry = path.resolve(
    __dirname,
    '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
  );

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-demo-test-'));
    t = await startProxyApp({
      deploymentsEnabled: true,
      dataDir,
      deploymentStopGraceMs: 2_000,
      deploymentPath: process.env.PATH ?? '/usr/bin:/bin',
    });
    ops = await startDemoOpsServer();
    api = new DemoApi(t.base);
    account = await createDemoAccount(api, `demo-${Date.now()}@example.com`, 'demo-password-for-tests');
    const [everything, opsServer] = await Promise.all([
      deployEverything(api, account.workspaceId, everythingEntry),
      registerOpsServer(api, account.workspaceId, ops.url),
    ]);
    servers = { everything, ops: opsServer };
    // The proxy URLs name the app's own listener (the test app's public URL is its request origin).
    agent = new ScriptedAgent({ everything: everything.proxyUrl, ops: opsServer.proxyUrl });
    await agent.burst();
    await showSchemaHistory(api, account.workspaceId, servers.ops, ops);
    await showOutage(api, account.workspaceId, servers.ops, ops, 300);
    agent.startTrickle(300);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await agent.stop();
  });

  afterAll(async () => {
    await (agent as ScriptedAgent | undefined)?.stop();
    await (ops as DemoOpsServer | undefined)?.close();
    await (t as ProxyTestApp | undefined)?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const ws = () => account.workspaceId;

  it('ran without a failed episode: every session connected, called and ended', () => {
    expect(agent.stats.failedEpisodes).toBe(0);
    expect(agent.stats.episodes).toBeGreaterThanOrEqual(7);
  });

  it('recorded sessions of every demo client on both servers, ended ones and the one still at work', async () => {
    const { sessions } = await waitFor('sessions', async () => {
      const page = await api.get<{ sessions: SessionDto[]; total: number }>(`${Paths.sessions(ws())}?limit=200`);
      return page.sessions.some((s) => s.status === 'ended') ? page : undefined;
    });
    expect(new Set(sessions.map((s) => s.clientName))).toEqual(new Set(DEMO_CLIENTS));
    expect(new Set(sessions.map((s) => s.serverId))).toEqual(
      new Set([servers.everything.serverId, servers.ops.serverId]),
    );
    expect(sessions.filter((s) => s.status === 'ended').length).toBeGreaterThanOrEqual(6);
  });

  it('shows calls that succeeded and failed, with reasoning and a traceparent in _meta', async () => {
    const { toolCalls } = await api.get<{ toolCalls: ToolCallDto[] }>(`${Paths.toolCallsLive(ws())}?limit=200`);
    expect(toolCalls.some((c) => c.status === 'ok')).toBe(true);
    expect(toolCalls.some((c) => c.status === 'error')).toBe(true);
    const reasoned = toolCalls.filter(
      (c) => typeof (c.meta as Record<string, unknown> | null)?.['dev.toolscope.demo/reasoning'] === 'string',
    );
    expect(reasoned.length).toBe(toolCalls.length);
    expect(toolCalls.every((c) => /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/.test(c.traceparent ?? ''))).toBe(true);
    // Slow calls with progress: the long-running operation and the docs search.
    expect(toolCalls.some((c) => c.toolName === 'search_docs' && c.status === 'ok' && (c.durationMs ?? 0) >= 250)).toBe(
      true,
    );
  });

  it("replays a session's messages: initialize, tool calls, progress, a prompt and a resource", async () => {
    const { sessions } = await api.get<{ sessions: SessionDto[] }>(
      `${Paths.sessions(ws())}?limit=200&status=ended&serverId=${servers.ops.serverId}`,
    );
    const methods = new Set<string>();
    for (const session of sessions) {
      const replay = await api.get<{ messages: MessageDto[] }>(`${Paths.sessionReplay(ws(), session.id)}?limit=1000`);
      for (const message of replay.messages) if (message.method) methods.add(message.method);
    }
    expect([...methods]).toEqual(
      expect.arrayContaining([
        'initialize',
        'tools/list',
        'tools/call',
        'notifications/progress',
        'prompts/get',
        'resources/read',
      ]),
    );
  });

  it('feeds the activity stream with calls and session starts and ends', async () => {
    const { events } = await api.get<{ events: ActivityEvent[] }>(`${Paths.activityStream(ws())}?limit=200`);
    const kinds = new Set(events.map((e) => e.kind));
    expect(kinds).toEqual(new Set(['tool_call', 'session_started', 'session_ended']));
  });

  it('gives the schema studio a hand-written version, a drifted version with its patch, and a rollback', async () => {
    const { schemas } = await api.get<SchemaListResult>(`${Paths.schemas(ws(), servers.ops.serverId)}?limit=100`);
    const lookup = schemas.find((s) => s.name === 'lookup_customer')!;
    const ticket = schemas.find((s) => s.name === 'create_ticket')!;
    expect(lookup).toMatchObject({ currentVersion: 2, drifted: false, pinnedVersion: null });
    expect(ticket).toMatchObject({ currentVersion: 2, drifted: true, pinnedVersion: 1 });
    const { patches } = await api.get<PatchListResult>(
      `${Paths.schemas(ws(), servers.ops.serverId)}/${ticket.id}/patches`,
    );
    expect(patches).toEqual([
      expect.objectContaining({
        fromVersion: 1,
        toVersion: 2,
        source: 'discovery',
        operations: [{ op: 'replace', path: '/description', value: CREATE_TICKET_DESCRIPTIONS.after }],
      }),
    ]);
    const lookupPatches = await api.get<PatchListResult>(
      `${Paths.schemas(ws(), servers.ops.serverId)}/${lookup.id}/patches`,
    );
    expect(lookupPatches.patches).toEqual([
      expect.objectContaining({ fromVersion: 1, toVersion: 2, source: 'manual' }),
    ]);
  });

  it('raised the notifications the bell shows: offline, back online, the risk alert of the rug pull, the deployment', async () => {
    const { notifications } = await waitFor('the notifications', async () => {
      const list = await api.get<{ notifications: NotificationDto[] }>(
        `${Paths.notifications}?workspaceId=${ws()}&limit=100`,
      );
      return list.notifications.some((n) => n.title === 'Server Online') ? list : undefined;
    });
    const titles = notifications.map((n) => `${n.type}: ${n.title}`);
    expect(titles).toEqual(
      expect.arrayContaining([
        'tool_server_status: Server Offline',
        'tool_server_status: Server Online',
        // The rug pull adds a high finding (a credential path): held, and named as such (issue 36).
        'tool_risk: Risky tool definition: create_ticket',
        'deployment_update: Deployment Running',
      ]),
    );
  });

  it('puts non-zero numbers on the dashboard', async () => {
    const overview = await api.get<{
      servers: { total: number; online: number };
      sessions: { today: number };
      toolCalls: { today: number; errors: number };
    }>(Paths.dashboardOverview(ws()));
    expect(overview.servers).toMatchObject({ total: 2, online: 2 });
    expect(overview.sessions.today).toBeGreaterThan(0);
    expect(overview.toolCalls.today).toBeGreaterThan(0);
    expect(overview.toolCalls.errors).toBeGreaterThan(0);
  });
});
