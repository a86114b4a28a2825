import type { FastifyBaseLogger } from 'fastify';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { LiveMessage } from '../../contract/live';
import type { SessionDto, ToolCallDto } from '../../contract/sessions';
import type { ExporterTestResult } from '../../contract/telemetry';
import type { Database } from '../db/database';
import type { EventBus } from '../events/bus';
import { isRelayedMessage } from '../events/busRelay';
import type { OutboundClient } from '../net/outboundClient';
import {
  enabledExporters,
  openHeaders,
  recordExportTally,
  type ExporterRow,
  type ExportTally,
} from '../data/telemetry/store';
import { ExporterRuntime } from './exporterRuntime';
import { postOtlp, serializeSpans, signalUrl, type ExporterSettings } from './otlpHttp';
import type { McpRequestEvent, ProxyEvents } from '../proxy/proxyEvents';
import { sampled, spanOfCall, spanOfRequest } from './spanMapping';
import { AgentSessionIds } from './agentSessionId';
import { CallContexts } from './callContexts';
import { testSpanOf } from './testSpan';

// Feeds the workspace exporters from what the recorder stored: each `tool_call` live message
// (published after its row is written) becomes a span and a metric measurement for every enabled
// exporter of that workspace. Only workspaces with exporters are listened to, and a message
// relayed from another instance is skipped (that instance exported the original).

export interface TelemetryServiceOptions {
  db: Database;
  bus: EventBus;
  outbound: OutboundClient;
  secret: string;
  log: FastifyBaseLogger;
  version: string;
  metricsIntervalMs: number;
  /** How often exporter changes made on other instances are picked up. */
  reloadMs?: number;
}

export class TelemetryService {
  /** Per workspace: each enabled exporter's runtime, and the row version it was built from. */
  private readonly runtimes = new Map<string, { runtime: ExporterRuntime; version: string }[]>();
  private readonly subscriptions = new Map<string, () => void>();
  private readonly contexts: CallContexts;
  private readonly pendingTallies = new Map<
    string,
    Required<Pick<ExportTally, 'spans' | 'metricPoints' | 'failed' | 'dropped'>> &
      Pick<ExportTally, 'succeededAt' | 'error'>
  >();
  private readonly resource: Resource;
  private reloadTimer: NodeJS.Timeout | undefined;
  private tallyTimer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: TelemetryServiceOptions) {
    this.resource = resourceFromAttributes({
      'service.name': 'toolscope',
      'service.version': options.version,
      'telemetry.sdk.name': 'toolscope',
    });
    this.contexts = new CallContexts(options.db, new AgentSessionIds(options.secret));
  }

  /** Bus subscriptions held for exporters (the metrics route tells them from live streams). */
  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  /** Spans waiting in every exporter's queue. */
  get queuedSpans(): number {
    let queued = 0;
    for (const entries of this.runtimes.values()) for (const { runtime } of entries) queued += runtime.queuedSpans;
    return queued;
  }

  async start(): Promise<void> {
    await this.reload();
    this.reloadTimer = setInterval(() => void this.reload(), this.options.reloadMs ?? 15_000);
    this.reloadTimer.unref();
    this.tallyTimer = setInterval(() => void this.flushTallies(), 1_000);
    this.tallyTimer.unref();
  }

  /** Rebuilds the exporters from the database (after a change here, and periodically for other instances' changes). */
  reload(): Promise<void> {
    this.reloading = this.reloading
      .then(() => this.reloadNow())
      .catch((err: unknown) => this.options.log.warn({ err }, 'telemetry exporters could not be loaded'));
    return this.reloading;
  }

  private proxyEvents: ProxyEvents | undefined;
  private listeningToRequests = false;

  /** The proxy's events of this instance: its answered requests become spans while any exporter exists. */
  useProxyEvents(events: ProxyEvents): void {
    this.proxyEvents = events;
    this.syncRequestListener();
  }

  // Listening makes the proxy note every request's start: only while some workspace exports.
  private syncRequestListener(): void {
    const wanted = this.runtimes.size > 0 && !this.closed;
    if (!this.proxyEvents || wanted === this.listeningToRequests) return;
    if (wanted) this.proxyEvents.on('mcp_request', this.onRequest);
    else this.proxyEvents.off('mcp_request', this.onRequest);
    this.listeningToRequests = wanted;
  }

  private async reloadNow(): Promise<void> {
    if (this.closed) return;
    try {
      await this.reloadExporters();
    } finally {
      this.syncRequestListener();
    }
  }

  private async reloadExporters(): Promise<void> {
    const rows = await enabledExporters(this.options.db);
    const wanted = new Map<string, ExporterRow[]>();
    for (const row of rows) wanted.set(row.workspace_id, [...(wanted.get(row.workspace_id) ?? []), row]);
    const versionOf = (row: ExporterRow) => `${row.id}:${new Date(row.updated_at).getTime()}`;
    for (const [workspaceId, current] of this.runtimes) {
      const next = wanted.get(workspaceId) ?? [];
      const same = current.length === next.length && current.every((entry, i) => entry.version === versionOf(next[i]));
      if (same) {
        wanted.delete(workspaceId);
        continue;
      }
      await Promise.all(current.map((entry) => entry.runtime.close()));
      this.runtimes.delete(workspaceId);
      if (next.length === 0) {
        this.subscriptions.get(workspaceId)?.();
        this.subscriptions.delete(workspaceId);
      }
    }
    for (const [workspaceId, exporters] of wanted) {
      this.runtimes.set(
        workspaceId,
        exporters.map((row) => ({
          runtime: new ExporterRuntime(
            this.settingsOf(row),
            this.options.outbound,
            (id, t) => this.addTally(id, t),
            this.resource,
            this.options.metricsIntervalMs,
          ),
          version: versionOf(row),
        })),
      );
      if (!this.subscriptions.has(workspaceId)) {
        this.subscriptions.set(
          workspaceId,
          this.options.bus.subscribe(workspaceId, (message) => this.onMessage(workspaceId, message)),
        );
      }
    }
  }

  private settingsOf(row: ExporterRow): ExporterSettings {
    return {
      id: row.id,
      endpoint: row.endpoint,
      protocol: row.protocol,
      headers: openHeaders(row, this.options.secret),
      signals: row.signals,
      samplingRatio: row.sampling_ratio,
    };
  }

  private onMessage(workspaceId: string, message: LiveMessage): void {
    if (isRelayedMessage(message)) return;
    if (message.type === 'session_started') {
      this.contexts.sessionStarted(message.data as SessionDto);
    } else if (message.type === 'session_ended') {
      this.contexts.sessionEnded((message.data as SessionDto).id);
    } else if (message.type === 'server_updated') {
      this.contexts.serverUpdated(message.data as { id: string; url: string; name: string });
    } else if (message.type === 'tool_call') {
      void this.exportCall(workspaceId, message.data as ToolCallDto);
    }
  }

  /** A request other than tools/call, as the proxy of this instance saw it answered (its span only). */
  readonly onRequest = (request: McpRequestEvent): void => {
    const runtimes = this.runtimes.get(request.workspaceId);
    if (!runtimes || runtimes.length === 0) return;
    const server = this.contexts.server(request.serverId);
    const agentSessionId =
      request.sessionId && request.transport && request.sessionStartedAt
        ? this.contexts.agentSessionIds.of({
            id: request.sessionId,
            serverId: request.serverId,
            transport: request.transport,
            mcpSessionId: request.mcpSessionId,
            startedAtMs: Date.parse(request.sessionStartedAt),
          })
        : request.mcpSessionId;
    const span = spanOfRequest(request, { serverName: server?.name ?? null, agentSessionId }, this.resource);
    const errorType = span.attributes['error.type'] as string | undefined;
    for (const { runtime } of runtimes) {
      if (runtime.wantsTraces && sampled(span.spanContext().traceId, runtime.settings.samplingRatio))
        runtime.addSpan(span);
      // Every method is an operation of the conventions' metric, not only tools/call.
      runtime.measure({
        method: request.method,
        serverId: request.serverId,
        durationMs: Math.max(0, request.endedMs - request.startedMs),
        errorType,
      });
    }
  };

  private async exportCall(workspaceId: string, call: ToolCallDto): Promise<void> {
    const runtimes = this.runtimes.get(workspaceId);
    if (!runtimes || runtimes.length === 0 || call.status === 'pending') return;
    const context = await this.contexts.of(workspaceId, call);
    const span = spanOfCall(call, context, this.resource);
    const errorType = span.attributes['error.type'] as string | undefined;
    for (const { runtime } of runtimes) {
      if (runtime.wantsTraces && sampled(span.spanContext().traceId, runtime.settings.samplingRatio))
        runtime.addSpan(span);
      runtime.measure({
        method: 'tools/call',
        serverId: call.serverId,
        tool: call.toolName,
        durationMs: call.durationMs ?? 0,
        errorType,
      });
    }
  }

  private addTally(id: string, tally: ExportTally): void {
    const pending = this.pendingTallies.get(id) ?? { spans: 0, metricPoints: 0, failed: 0, dropped: 0 };
    pending.spans += tally.spans ?? 0;
    pending.metricPoints += tally.metricPoints ?? 0;
    pending.failed += tally.failed ?? 0;
    pending.dropped += tally.dropped ?? 0;
    if (tally.succeededAt) pending.succeededAt = tally.succeededAt;
    if (tally.error !== undefined) pending.error = tally.error;
    this.pendingTallies.set(id, pending);
  }

  /** Writes the counters gathered since the last write (one statement per exporter, once a second). */
  async flushTallies(): Promise<void> {
    const entries = [...this.pendingTallies];
    this.pendingTallies.clear();
    for (const [id, tally] of entries) {
      await recordExportTally(this.options.db, id, tally).catch((err: unknown) =>
        this.options.log.warn({ err, exporterId: id }, 'telemetry counters not saved'),
      );
    }
  }

  /** Sends everything queued now (tests): spans and metric points. */
  async flushAll(): Promise<void> {
    await this.reloading;
    for (const runtimes of this.runtimes.values()) {
      for (const { runtime } of runtimes) {
        await runtime.flush();
        await runtime.flushMetrics();
      }
    }
    await this.flushTallies();
  }

  /** One test span to the exporter's collector, answered with what the collector said. */
  async sendTestSpan(row: ExporterRow, headers: Record<string, string>): Promise<ExporterTestResult> {
    const tested = testSpanOf(row.workspace_id, this.resource);
    const outcome = await postOtlp(
      this.options.outbound,
      signalUrl(row.endpoint, 'traces'),
      row.protocol,
      headers,
      serializeSpans(row.protocol, [tested]),
    );
    if (outcome.ok) this.addTally(row.id, { spans: 1, succeededAt: new Date(), error: null });
    else this.addTally(row.id, { failed: 1, error: `test: ${outcome.message}` });
    await this.flushTallies();
    return { ok: outcome.ok, statusCode: outcome.statusCode, latencyMs: outcome.latencyMs, message: outcome.message };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reloadTimer) clearInterval(this.reloadTimer);
    if (this.tallyTimer) clearInterval(this.tallyTimer);
    await this.reloading;
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
    await Promise.all([...this.runtimes.values()].flat().map((entry) => entry.runtime.close()));
    this.runtimes.clear();
    this.syncRequestListener();
    await this.flushTallies();
  }
}
