import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { OutboundClient } from '../net/outboundClient';
import {
  EXPORT_LIMITS,
  OtlpHttpMetricExporter,
  postOtlp,
  serializeSpans,
  signalUrl,
  type ExporterSettings,
  type ExportTallySink,
} from './otlpHttp';

// One enabled exporter at run time: a bounded span queue sent in batches to {endpoint}/v1/traces,
// and an OpenTelemetry MeterProvider whose periodic reader sends {endpoint}/v1/metrics. Everything
// here runs beside the proxy, never in its path: a slow or unreachable collector only grows the
// queue up to its bound, then spans are dropped and counted.

/** One answered MCP request: every method is measured, tools/call with its tool. */
export interface CallMeasurement {
  method: string;
  serverId: string;
  tool?: string;
  durationMs: number;
  errorType?: string;
}

/** MCP semantic conventions, mcp.server.operation.duration: recommended bucket boundaries (s). */
export const OPERATION_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

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
      this.duration = meter.createHistogram('mcp.server.operation.duration', {
        unit: 's',
        description: 'Duration of MCP requests through the Toolscope proxy',
        // The conventions' boundaries (seconds): the SDK's defaults are milliseconds' (0, 5, 10,
        // 25 …), which put every call under 5 s in one bucket.
        advice: { explicitBucketBoundaries: OPERATION_DURATION_BUCKETS },
      });
      this.errors = meter.createCounter('toolscope.mcp.errors', {
        unit: '{error}',
        description: 'MCP requests through the proxy that failed',
      });
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
    const attributes: Record<string, string> = {
      'mcp.method.name': call.method,
      'toolscope.server.id': call.serverId,
    };
    if (call.tool !== undefined) attributes['gen_ai.tool.name'] = call.tool;
    if (call.errorType) attributes['error.type'] = call.errorType;
    this.duration.record(call.durationMs / 1000, attributes);
    if (call.errorType) this.errors.add(1, attributes);
  }

  private flushSoon(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.flush();
      },
      Math.max(delayMs, this.backoffMs),
    );
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
      const outcome = await postOtlp(
        this.outbound,
        signalUrl(this.settings.endpoint, 'traces'),
        this.settings.protocol,
        this.settings.headers,
        serializeSpans(this.settings.protocol, batch),
      );
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
        this.tally(this.settings.id, {
          failed: 1,
          dropped: batch.length - kept.length,
          error: `traces: ${outcome.message}`,
        });
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
