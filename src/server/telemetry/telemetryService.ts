import type { FastifyBaseLogger } from 'fastify';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { LiveMessage } from '../../contract/live';
import type { SessionDto, ToolCallDto } from '../../contract/sessions';
import type { ExporterTestResult } from '../../contract/telemetry';
import type { Database } from '../db/database';
import type { EventBus } from '../events/bus';
import { isRelayedMessage } from '../events/busRelay';
import type { OutboundClient } from '../net/outboundClient';
import { enabledExporters, openHeaders, recordExportTally, type ExporterRow, type ExportTally } from '../modules/telemetry/store';
import { ExporterRuntime, postOtlp, serializeSpans, signalUrl, type ExporterSettings } from './exporterRuntime';
import type { McpRequestEvent, ProxyEvents } from '../proxy/proxyEvents';
import { hrTime, sampled, spanOfCall, spanOfRequest, type CallContext } from './spanMapping';

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

interface SessionContext {
  mcpSessionId: string | null;
  protocolVersion: string | null;
  clientName: string | null;
}

const MAX_SESSIONS = 10_000;

export class TelemetryService {
  /** Per workspace: each enabled exporter's runtime, and the row version it was built from. */
  private readonly runtimes = new Map<string, { runtime: ExporterRuntime; version: string }[]>();
  private readonly subscriptions = new Map<string, () => void>();
  private readonly sessions = new Map<string, SessionContext>();
  private readonly servers = new Map<string, { url: string; name: string }>();
  private readonly pendingTallies = new Map<string, Required<Pick<ExportTally, 'spans' | 'metricPoints' | 'failed' | 'dropped'>> & Pick<ExportTally, 'succeededAt' | 'error'>>();
  private readonly resource: Resource;
  private reloadTimer: NodeJS.Timeout | undefined;
  private tallyTimer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: TelemetryServiceOptions) {
    this.resource = resourceFromAttributes({ 'service.name': 'toolscope', 'service.version': options.version, 'telemetry.sdk.name': 'toolscope' });
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
    this.reloading = this.reloading.then(() => this.reloadNow()).catch((err: unknown) => this.options.log.warn({ err }, 'telemetry exporters could not be loaded'));
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
          runtime: new ExporterRuntime(this.settingsOf(row), this.options.outbound, (id, t) => this.addTally(id, t), this.resource, this.options.metricsIntervalMs),
          version: versionOf(row),
        })),
      );
      if (!this.subscriptions.has(workspaceId)) {
        this.subscriptions.set(workspaceId, this.options.bus.subscribe(workspaceId, (message) => this.onMessage(workspaceId, message)));
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
      samplingRatio: Number(row.sampling_ratio),
    };
  }

  private onMessage(workspaceId: string, message: LiveMessage): void {
    if (isRelayedMessage(message)) return;
    if (message.type === 'session_started') {
      const session = message.data as SessionDto;
      if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
      this.sessions.set(session.id, { mcpSessionId: session.mcpSessionId, protocolVersion: session.protocolVersion, clientName: session.clientName });
    } else if (message.type === 'session_ended') {
      this.sessions.delete((message.data as SessionDto).id);
    } else if (message.type === 'server_updated') {
      const server = message.data as { id: string; url: string; name: string };
      this.servers.set(server.id, { url: server.url, name: server.name });
    } else if (message.type === 'tool_call') {
      void this.exportCall(workspaceId, message.data as ToolCallDto);
    }
  }

  /** A request other than tools/call, as the proxy of this instance saw it answered (its span only). */
  readonly onRequest = (request: McpRequestEvent): void => {
    const runtimes = this.runtimes.get(request.workspaceId);
    if (!runtimes || runtimes.length === 0) return;
    const server = this.servers.get(request.serverId);
    const span = spanOfRequest(request, { serverUrl: server?.url ?? null, serverName: server?.name ?? null }, this.resource);
    for (const { runtime } of runtimes) {
      if (runtime.wantsTraces && sampled(span.spanContext().traceId, runtime.settings.samplingRatio)) runtime.addSpan(span);
    }
  };

  private async exportCall(workspaceId: string, call: ToolCallDto): Promise<void> {
    const runtimes = this.runtimes.get(workspaceId);
    if (!runtimes || runtimes.length === 0 || call.status === 'pending') return;
    const context = await this.contextOf(workspaceId, call);
    const span = spanOfCall(call, context, this.resource);
    const errorType = span.attributes['error.type'] as string | undefined;
    for (const { runtime } of runtimes) {
      if (runtime.wantsTraces && sampled(span.spanContext().traceId, runtime.settings.samplingRatio)) runtime.addSpan(span);
      runtime.measure({ serverId: call.serverId, tool: call.toolName, durationMs: call.durationMs ?? 0, errorType });
    }
  }

  private async contextOf(workspaceId: string, call: ToolCallDto): Promise<CallContext> {
    let server = this.servers.get(call.serverId);
    if (!server) {
      const [row] = await this.options.db.query<{ url: string; name: string }>('select url, name from servers where id = $1', [call.serverId]).catch(() => []);
      if (row) this.servers.set(call.serverId, (server = { url: row.url, name: row.name }));
    }
    let session = this.sessions.get(call.sessionId);
    if (!session) {
      const [row] = await this.options.db
        .query<{ mcp_session_id: string | null; protocol_version: string | null; client_name: string | null }>(
          'select mcp_session_id, protocol_version, client_name from sessions where id = $1',
          [call.sessionId],
        )
        .catch(() => []);
      session = row ? { mcpSessionId: row.mcp_session_id, protocolVersion: row.protocol_version, clientName: row.client_name } : { mcpSessionId: null, protocolVersion: null, clientName: null };
    }
    return { workspaceId, ...session, serverUrl: server?.url ?? null, serverName: server?.name ?? call.serverName ?? null };
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
      await recordExportTally(this.options.db, id, tally).catch((err: unknown) => this.options.log.warn({ err, exporterId: id }, 'telemetry counters not saved'));
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
    const now = Date.now();
    const span = spanOfCall(
      {
        id: 'test',
        sessionId: 'test',
        serverId: 'test',
        jsonrpcId: null,
        toolName: 'toolscope.test',
        arguments: null,
        result: null,
        errorMessage: null,
        status: 'ok',
        startedAt: new Date(now - 1).toISOString(),
        endedAt: new Date(now).toISOString(),
        durationMs: 1,
        requestBytes: 0,
        responseBytes: 0,
        tokensEstimate: 0,
        meta: null,
        traceparent: null,
      },
      { workspaceId: row.workspace_id, mcpSessionId: null, protocolVersion: null, clientName: 'toolscope-test', serverUrl: null, serverName: 'Toolscope test' },
      this.resource,
    );
    const tested = { ...span, name: 'toolscope test span', startTime: hrTime(now - 1), attributes: { ...span.attributes, 'toolscope.test': true } };
    const outcome = await postOtlp(this.options.outbound, signalUrl(row.endpoint, 'traces'), row.protocol, headers, serializeSpans(row.protocol, [tested]));
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
