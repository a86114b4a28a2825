import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DemoApi, Paths, waitUntil } from './demoApi';
import { startDemoOpsServer, type DemoOpsServer } from './demoOpsServer';
import {
  createDemoAccount,
  deployEverything,
  recordedCallsToday,
  registerOpsServer,
  showOutage,
  showSchemaHistory,
} from './demoSetup';
import { descendantsOf, isStillRunning, type ProcessEntry } from './processTree';
import { startPacedTrickle, type PacedTrickle } from './pacedTrickle';
import { MOST_CALLS_PER_EPISODE } from './agentPlans';
import { ScriptedAgent } from './scriptedAgent';
import { freePort, portIsFree, startToolscope, type ToolscopeProcess } from './toolscopeProcess';

// `npm run demo` (scripts/demo.mjs calls this once the build is done): Toolscope on a fresh data
// dir, a demo account, two real MCP servers, the scripted agent, and — on Ctrl-C — every process
// it started stopped and checked gone.

export interface DemoOptions {
  /** The repository (dist/ and node_modules/ are found from it). */
  root: string;
  /** When the command started (ms since epoch): the figures printed count from it. */
  startedAt: number;
  /** 0 = any free port; undefined = 4000, or a free port when 4000 is taken (say, by `npm start`). */
  port?: number;
  /** A data dir to use and keep (the demo account is reused); default a fresh one, deleted at exit. */
  dataDir?: string;
  trickleMs?: number;
  print?: (line: string) => void;
}

const DEMO_EMAIL = 'demo@example.com';
const DEMO_FLAGS =
  'show_schema_studio=true,show_cost_analytics=true,show_cost_attribution=true,show_deployments=true,show_onboarding_modal=false';

/** The demo user's password: made up on a fresh data dir, read back from a kept one (`rerun`). */
function demoPassword(dataDir: string): { password: string; rerun: boolean } {
  const file = path.join(dataDir, 'demo-account.json');
  if (fs.existsSync(file))
    return { password: (JSON.parse(fs.readFileSync(file, 'utf8')) as { password: string }).password, rerun: true };
  const password = `demo-${randomBytes(9).toString('base64url')}`;
  fs.writeFileSync(file, JSON.stringify({ email: DEMO_EMAIL, password }), { mode: 0o600 });
  return { password, rerun: false };
}

export async function runDemo(options: DemoOptions): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const seconds = () => ((Date.now() - options.startedAt) / 1000).toFixed(1);
  const keepData = options.dataDir !== undefined;
  const dataDir = options.dataDir
    ? path.resolve(options.dataDir)
    : fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-demo-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const everythingEntry = path.join(options.root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  if (!fs.existsSync(everythingEntry))
    throw new Error(`${everythingEntry} is missing: run \`npm install\` (with dev dependencies) first.`);

  let toolscope: ToolscopeProcess | undefined;
  let opsServer: DemoOpsServer | undefined;
  let agent: ScriptedAgent | undefined;
  let trickle: PacedTrickle | undefined;
  const noted: ProcessEntry[] = [];
  // Set by shutdown(), which runs from signal handlers while the steps below await.
  let stopping = false as boolean;
  const noteProcesses = () => {
    for (const entry of descendantsOf(process.pid))
      if (!noted.some((n) => n.pid === entry.pid && n.startTicks === entry.startTicks)) noted.push(entry);
  };

  const shutdown = async (signal: string, failed = false) => {
    if (stopping) {
      print('Second signal: killing everything the demo started now.');
      for (const entry of [...descendantsOf(process.pid), ...noted])
        if (isStillRunning(entry)) process.kill(entry.pid, 'SIGKILL');
      process.exit(130);
    }
    stopping = true;
    print(`\n${signal}: stopping the demo…`);
    noteProcesses();
    trickle?.stop();
    await agent?.stop().catch(() => undefined);
    await opsServer?.close().catch(() => undefined);
    await toolscope?.stop();
    // Toolscope's deployments die with it (their watchdog); give the kernel a moment, then check.
    const deadline = Date.now() + 10_000;
    while (noted.some(isStillRunning) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const left = noted.filter(isStillRunning);
    for (const entry of left) process.kill(entry.pid, 'SIGKILL');
    if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    print(
      left.length === 0
        ? `Stopped: the ${noted.length} processes the demo started are gone.`
        : `Stopped; ${left.length} process(es) had to be killed: ${left.map((e) => e.pid).join(', ')}`,
    );
    process.exit(left.length === 0 && !failed ? 0 : 1);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    let port = options.port ?? 4000;
    if (port === 0) port = await freePort();
    else if (options.port === undefined && !(await portIsFree(port))) {
      port = await freePort();
      print(`Port 4000 is taken; the demo uses ${port} (--port N chooses).`);
    }
    const flags = [DEMO_FLAGS, process.env.TOOLSCOPE_FLAGS].filter(Boolean).join(',');
    const started = await startToolscope(
      options.root,
      port,
      {
        TOOLSCOPE_DATA_DIR: dataDir,
        TOOLSCOPE_DEPLOYMENTS: 'on',
        TOOLSCOPE_FLAGS: flags,
        TOOLSCOPE_LOG_LEVEL: process.env.TOOLSCOPE_LOG_LEVEL ?? 'warn',
        // A terminal's Ctrl-C reaches Toolscope while the agent's open session still holds a stream:
        // nothing in a demo is worth the default 10 s of draining.
        TOOLSCOPE_SHUTDOWN_GRACE_MS: process.env.TOOLSCOPE_SHUTDOWN_GRACE_MS ?? '2000',
      },
      (line) => print(`[toolscope] ${line}`),
    );
    toolscope = started;
    if (stopping) return;
    void started.exited.then(() => {
      if (stopping) return;
      print(`Toolscope exited unexpectedly:\n${started.recentOutput()}`);
      void shutdown('Toolscope exited', true);
    });
    const api = new DemoApi(toolscope.baseUrl);
    const { password, rerun } = demoPassword(dataDir);
    const account = await createDemoAccount(api, DEMO_EMAIL, password);
    opsServer = await startDemoOpsServer(0, rerun);
    const [everything, ops] = await Promise.all([
      deployEverything(api, account.workspaceId, everythingEntry),
      registerOpsServer(api, account.workspaceId, opsServer.url),
    ]);
    noteProcesses();

    print('');
    print(`Toolscope demo (${seconds()} s)`);
    print(`  Dashboard   ${toolscope.baseUrl}/dashboard`);
    print(`  Email       ${account.email}`);
    print(`  Password    ${account.password}`);
    print(`  Proxy URLs  ${everything.name}: ${everything.proxyUrl}`);
    print(`              ${ops.name}: ${ops.proxyUrl}`);
    print(`  Data        ${dataDir}${keepData ? '' : ' (deleted at exit; --data-dir DIR keeps it)'}`);
    print('Ctrl-C stops the demo and everything it started.');
    print('');

    agent = new ScriptedAgent({ everything: everything.proxyUrl, ops: ops.proxyUrl }, (line) =>
      print(`[agent] ${line}`),
    );
    // A kept data dir may hold calls of an earlier run today: count from what is there now.
    const before = await recordedCallsToday(api, account.workspaceId);
    const burst = agent.burst();
    await waitUntil(
      'the first recorded tool call',
      async () => ((await recordedCallsToday(api, account.workspaceId)) > before ? true : undefined),
      60_000,
    );
    print(`Live: the first tool call is on the dashboard, ${seconds()} s after the command started.`);
    await burst;
    await showSchemaHistory(api, account.workspaceId, ops, opsServer);
    await showOutage(api, account.workspaceId, ops, opsServer, 4_000);
    const trickling = agent;
    trickle = startPacedTrickle({
      launch: () => trickling.launchNext(),
      readQuota: async () =>
        (
          await api.get<{ agentCalls: { used: number; limit: number | null; periodStart: string } }>(
            Paths.workspaceLimits,
          )
        ).agentCalls,
      baseEveryMs: options.trickleMs ?? 5_000,
      callsPerEpisode: MOST_CALLS_PER_EPISODE,
      // Not "[agent]": that prefix is for what went wrong in an episode; these say how it paces itself.
      print,
    });
    noteProcesses();
    print(
      `Every screen has data, ${seconds()} s after the command started: sessions, replay, activity, tool reasoning, schema studio (drift, versions, rollback), notifications (Demo Ops went offline and came back), analytics.`,
    );
    print("The agent keeps a gentle trickle of calls going, paced to last the month on the account's plan.");
  } catch (error) {
    if (stopping) return;
    print(`The demo failed: ${error instanceof Error ? error.message : String(error)}`);
    await shutdown('error', true);
  }
}
