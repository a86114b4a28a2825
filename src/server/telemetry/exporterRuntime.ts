import { JsonMetricsSerializer, JsonTraceSerializer, ProtobufMetricsSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { OtlpProtocol, TelemetrySignal } from '../../contract/telemetry';
import type { OutboundClient } from '../net/outboundClient';

// One enabled exporter at run time: a bounded span queue sent in batches to {endpoint}/v1/traces,
// and an OpenTelemetry MeterProvider whose periodic reader sends {endpoint}/v1/metrics. Everything
// here runs beside the proxy, never in its path: a slow or unreachable collector only grows the
// queue up to its bound, then spans are dropped and counted.

export const EXPORT_LIMITS = {
  queueSize: 2048,
  batchSize: 256,
  flushMs: 1_000,
  timeoutMs: 10_000,
  maxBackoffMs: 30_000,
} as const;

export interface ExporterSettings {
  id: string;
  endpoint: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  signals: TelemetrySignal[];
  samplingRatio: number;
}

export interface ExportOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  message: string | null;
  retryable: boolean;
}

export interface ExportTallySink {
  (id: string, tally: { spans?: number; metricPoints?: number; failed?: number; dropped?: number; succeededAt?: Date; error?: string | null }): void;
}

const CONTENT_TYPE: Record<OtlpProtocol, string> = { 'http/protobuf': 'application/x-protobuf', 'http/json': 'application/json' };

export function signalUrl(endpoint: string, signal: 'traces' | 'metrics'): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/${signal}`;
}

/** One OTLP/HTTP POST through the guarded outbound client. */
export async function postOtlp(outbound: OutboundClient, url: string, protocol: OtlpProtocol, headers: Record<string, string>, body: Uint8Array): Promise<ExportOutcome> {
  const started = performance.now();
  const latency = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const response = await outbound.fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': CONTENT_TYPE[protocol], 'user-agent': 'Toolscope-OTLP/1' },
      body: Buffer.from(body),
      redirect: 'error',
      signal: AbortSignal.timeout(EXPORT_LIMITS.timeoutMs),
    });
    const text = await response.text().catch(() => '');
    const ok = response.status >= 200 && response.status < 300;
    const readable = protocol === 'http/json' || !ok ? text.replace(/[^\x20-\x7e]+/g, ' ').trim().slice(0, 300) : '';
    return {
      ok,
      statusCode: response.status,
      latencyMs: latency(),
      message: ok ? readable || null : `HTTP ${response.status}${readable ? `: ${readable}` : ''}`,
      retryable: response.status >= 500 || response.status === 429,
    };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const message = timedOut ? `No answer within ${EXPORT_LIMITS.timeoutMs / 1000} s` : error instanceof Error ? error.message : String(error);
    return { ok: false, statusCode: null, latencyMs: latency(), message, retryable: (error as { code?: string }).code !== 'outbound_blocked' };
  }
}

export function serializeSpans(protocol: OtlpProtocol, spans: ReadableSpan[]): Uint8Array {
  const serializer = protocol === 'http/json' ? JsonTraceSerializer : ProtobufTraceSerializer;
  return serializer.serializeRequest(spans) ?? new Uint8Array();
}

function pointCount(metrics: ResourceMetrics): number {
  let points = 0;
  for (const scope of metrics.scopeMetrics) for (const metric of scope.metrics) points += metric.dataPoints.length;
  return points;
}

/** The metric exporter the SDK's periodic reader calls: serializes with otlp-transformer and posts. */
class OtlpHttpMetricExporter implements PushMetricExporter {
  constructor(
    private readonly settings: ExporterSettings,
    private readonly outbound: OutboundClient,
    private readonly tally: ExportTallySink,
  ) {}

  export(metrics: ResourceMetrics, resultCallback: (result: { code: number; error?: Error }) => void): void {
    const points = pointCount(metrics);
    if (points === 0) return resultCallback({ code: 0 });
    const serializer = this.settings.protocol === 'http/json' ? JsonMetricsSerializer : ProtobufMetricsSerializer;
    const body = serializer.serializeRequest(metrics) ?? new Uint8Array();
    void postOtlp(this.outbound, signalUrl(this.settings.endpoint, 'metrics'), this.settings.protocol, this.settings.headers, body).then((outcome) => {
      this.tally(this.settings.id, outcome.ok ? { metricPoints: points, succeededAt: new Date(), error: null } : { failed: 1, error: `metrics: ${outcome.message}` });
      resultCallback(outcome.ok ? { code: 0 } : { code: 1, error: new Error(outcome.message ?? 'export failed') });
    });
  }

  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

export interface CallMeasurement {
  serverId: string;
  tool: string;
  durationMs: number;
  errorType?: string;
}

export class ExporterRuntime {
  private queue: ReadableSpan[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | null = null;
  private backoffMs = 0;
  private closed = false;
  private readonly meters: MeterProvider | undefined;
  private readonly duration;
  private readonly errors;

  constructor(
    readonly settings: ExporterSettings,
    private readonly outbound: OutboundClient,
    private readonly tally: ExportTallySink,
    resource: Resource,
    metricsIntervalMs: number,
  ) {
    if (settings.signals.includes('metrics')) {
      const reader = new PeriodicExportingMetricReader({
        exporter: new OtlpHttpMetricExporter(settings, outbound, tally),
        exportIntervalMillis: metricsIntervalMs,
        exportTimeoutMillis: Math.min(metricsIntervalMs, EXPORT_LIMITS.timeoutMs),
      });
      this.meters = new MeterProvider({ resource, readers: [reader] });
      const meter = this.meters.getMeter('toolscope.proxy', '1');
      // The MCP semantic conventions' operation duration (seconds), from the side the agent talks to.
      this.duration = meter.createHistogram('mcp.server.operation.duration', { unit: 's', description: 'Duration of MCP requests through the Toolscope proxy' });
      this.errors = meter.createCounter('toolscope.mcp.errors', { unit: '{error}', description: 'MCP requests through the proxy that failed' });
    }
  }

  get queuedSpans(): number {
    return this.queue.length;
  }

  get wantsTraces(): boolean {
    return this.settings.signals.includes('traces');
  }

  addSpan(span: ReadableSpan): void {
    if (this.closed || !this.wantsTraces) return;
    if (this.queue.length >= EXPORT_LIMITS.queueSize) {
      this.tally(this.settings.id, { dropped: 1 });
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= EXPORT_LIMITS.batchSize && !this.backoffMs) this.flushSoon(0);
    else this.flushSoon(EXPORT_LIMITS.flushMs);
  }

  measure(call: CallMeasurement): void {
    if (!this.duration || !this.errors) return;
    const attributes: Record<string, string> = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': call.tool, 'toolscope.server.id': call.serverId };
    if (call.errorType) attributes['error.type'] = call.errorType;
    this.duration.record(call.durationMs / 1000, attributes);
    if (call.errorType) this.errors.add(1, attributes);
  }

  private flushSoon(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, Math.max(delayMs, this.backoffMs));
    this.timer.unref();
  }

  /** Sends what is queued, one batch at a time; resolves when the queue is empty or a send failed. */
  flush(): Promise<void> {
    this.sending ??= this.sendAll().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }

  private async sendAll(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, EXPORT_LIMITS.batchSize);
      const outcome = await postOtlp(this.outbound, signalUrl(this.settings.endpoint, 'traces'), this.settings.protocol, this.settings.headers, serializeSpans(this.settings.protocol, batch));
      if (outcome.ok) {
        this.backoffMs = 0;
        this.tally(this.settings.id, { spans: batch.length, succeededAt: new Date(), error: null });
        continue;
      }
      if (outcome.retryable && !this.closed) {
        // Back to the front, as far as the bound allows; what does not fit is dropped and counted.
        const room = EXPORT_LIMITS.queueSize - this.queue.length;
        const kept = batch.slice(0, Math.max(0, room));
        this.queue.unshift(...kept);
        this.backoffMs = Math.min(this.backoffMs ? this.backoffMs * 2 : 1_000, EXPORT_LIMITS.maxBackoffMs);
        this.tally(this.settings.id, { failed: 1, dropped: batch.length - kept.length, error: `traces: ${outcome.message}` });
        this.flushSoon(this.backoffMs);
      } else {
        this.tally(this.settings.id, { failed: 1, dropped: batch.length, error: `traces: ${outcome.message}` });
      }
      return;
    }
  }

  /** Sends what is queued once more (bounded by the export timeout) and stops. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length > 0 && this.backoffMs === 0) await this.flush();
    this.closed = true;
    await this.meters?.shutdown().catch(() => undefined);
  }

  /** Sends the metric points gathered so far now (tests, and a last export at shutdown). */
  async flushMetrics(): Promise<void> {
    await this.meters?.forceFlush();
  }
}
