import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PLANS, type AgentTargets, type PlannedCall, type TargetName } from './agentPlans';

// The demo's agent: official SDK clients pointed at Toolscope's proxy URLs, doing what agents do —
// several clients (claude-code, cursor, my-agent), sessions that start and end, fast, slow and
// failing calls, progress, prompts and resources, and with every tool call the two things tool
// reasoning reads from `_meta` (docs/reasoning.md): a reasoning text and a W3C `traceparent`.
// Nothing is faked: every message goes through the real proxy to a real MCP server.

export const DEMO_CLIENTS = ['claude-code', 'cursor', 'my-agent'] as const;
export type DemoClientName = (typeof DEMO_CLIENTS)[number];

export interface EpisodeOptions {
  client: DemoClientName;
  target: TargetName;
  /** Which plan (any number: taken modulo the plans of the target). */
  plan: number;
  /** Leave the session open (an agent still working) instead of ending it. */
  keepOpen?: boolean;
}

export interface AgentStats {
  episodes: number;
  calls: number;
  failedEpisodes: number;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export class ScriptedAgent {
  readonly stats: AgentStats = { episodes: 0, calls: 0, failedEpisodes: 0 };
  private stopped = false;
  private readonly open = new Set<{ client: Client; transport: StreamableHTTPClientTransport }>();
  private readonly running = new Set<Promise<void>>();
  private trickleTimer: NodeJS.Timeout | undefined;
  private tick = 0;

  constructor(
    private readonly targets: AgentTargets,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** One session: connect, list, call the plan's tools, use a prompt and a resource, end (or stay open). */
  async runEpisode(options: EpisodeOptions): Promise<void> {
    const transport = new StreamableHTTPClientTransport(new URL(this.targets[options.target]));
    const client = new Client({
      name: options.client,
      version: options.client === 'claude-code' ? '2.1.4' : options.client === 'cursor' ? '1.7.0' : '0.3.0',
    });
    const handle = { client, transport };
    this.open.add(handle);
    try {
      await client.connect(transport);
      await client.listTools();
      // One trace per task (an LLM step of the agent), one span per call.
      const traceId = hex(16);
      const plans = PLANS[options.target];
      for (const call of plans[options.plan % plans.length]) {
        if (this.stopped) return;
        await this.callTool(client, call, traceId);
      }
      if (this.stopped) return;
      await this.usePromptAndResource(client, options.plan);
      if (!options.keepOpen) await transport.terminateSession();
    } catch (error) {
      this.stats.failedEpisodes++;
      if (!this.stopped)
        this.log(`${options.client} → ${options.target}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.stats.episodes++;
      if (!options.keepOpen || this.stopped) {
        this.open.delete(handle);
        await client.close().catch(() => undefined);
      }
    }
  }

  private async callTool(client: Client, call: PlannedCall, traceId: string): Promise<void> {
    this.stats.calls++;
    const _meta = { 'dev.toolscope.demo/reasoning': call.reasoning, traceparent: `00-${traceId}-${hex(8)}-01` };
    try {
      await client.callTool(
        { name: call.tool, arguments: call.arguments, _meta },
        undefined,
        call.progress ? { onprogress: () => undefined, timeout: 30_000 } : { timeout: 30_000 },
      );
    } catch {
      // A protocol error (an unknown tool, bad arguments) is part of the show; the agent carries on.
    }
  }

  private async usePromptAndResource(client: Client, plan: number): Promise<void> {
    const capabilities = client.getServerCapabilities();
    if (capabilities?.prompts) {
      const { prompts } = await client.listPrompts();
      const prompt =
        prompts.find((p) => !p.arguments?.some((a) => a.required)) ?? prompts.find((p) => p.name === 'triage_ticket');
      if (prompt)
        await client
          .getPrompt({
            name: prompt.name,
            arguments: prompt.name === 'triage_ticket' ? { ticketId: `TCK-${1000 + plan}` } : {},
          })
          .catch(() => undefined);
    }
    if (capabilities?.resources) {
      const { resources } = await client.listResources();
      const resource = resources.at(plan % Math.max(1, resources.length));
      if (resource) await client.readResource({ uri: resource.uri }).catch(() => undefined);
    }
  }

  private launch(options: EpisodeOptions): Promise<void> {
    const episode = this.runEpisode(options).finally(() => this.running.delete(episode));
    this.running.add(episode);
    return episode;
  }

  /** The opening burst: every client on both servers at once, so every screen fills in seconds. */
  async burst(): Promise<void> {
    const episodes: Promise<void>[] = [];
    DEMO_CLIENTS.forEach((client, i) => {
      episodes.push(this.launch({ client, target: 'everything', plan: i }));
      episodes.push(this.launch({ client, target: 'ops', plan: i }));
    });
    // One cursor session stays open: an agent still at work shows as an active session. On
    // Everything, which stays up: Demo Ops's outage forgets its sessions, as a restart would.
    episodes.push(this.launch({ client: 'cursor', target: 'everything', plan: 0, keepOpen: true }));
    await Promise.all(episodes);
  }

  /** The next episode of the trickle, rotating clients, servers and plans (the paced trickle calls it too). */
  launchNext(): void {
    if (this.stopped) return;
    const n = this.tick++;
    void this.launch({
      client: DEMO_CLIENTS[n % DEMO_CLIENTS.length],
      target: n % 2 === 0 ? 'everything' : 'ops',
      plan: Math.floor(n / 2),
    });
  }

  /** One episode every `everyMs` (±30 %); the demo paces it to its plan instead (pacedTrickle.ts). */
  startTrickle(everyMs = 5_000): void {
    const next = () => {
      if (this.stopped) return;
      this.trickleTimer = setTimeout(
        () => {
          this.launchNext();
          next();
        },
        everyMs * (0.7 + Math.random() * 0.6),
      );
    };
    next();
  }

  /** Stops the trickle, lets running episodes see the stop, then closes every client. */
  async stop(graceMs = 3_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.trickleTimer);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => (grace = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(grace);
    for (const handle of [...this.open]) {
      this.open.delete(handle);
      await handle.transport.terminateSession().catch(() => undefined);
      await handle.client.close().catch(() => undefined);
    }
  }
}
