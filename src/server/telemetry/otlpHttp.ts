import {
  JsonMetricsSerializer,
  JsonTraceSerializer,
  ProtobufMetricsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { OtlpProtocol, TelemetrySignal } from '../../contract/telemetry';
import type { OutboundClient } from '../net/outboundClient';
import { outboundFailureText, statusClassText } from '../net/outboundOutcome';

// OTLP over HTTP as an exporter speaks it (exporterRuntime.ts runs one per enabled exporter): the
// signal URLs, the serialization of spans and metrics, one POST and its outcome, and the metric
// exporter the SDK's periodic reader calls.

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
  (
    id: string,
    tally: {
      spans?: number;
      metricPoints?: number;
      failed?: number;
      dropped?: number;
      succeededAt?: Date;
      error?: string | null;
    },
  ): void;
}

const CONTENT_TYPE: Record<OtlpProtocol, string> = {
  'http/protobuf': 'application/x-protobuf',
  'http/json': 'application/json',
};

export function signalUrl(endpoint: string, signal: 'traces' | 'metrics'): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/${signal}`;
}

/** One OTLP/HTTP POST through the guarded outbound client. */
export async function postOtlp(
  outbound: OutboundClient,
  url: string,
  protocol: OtlpProtocol,
  headers: Record<string, string>,
  body: Uint8Array,
): Promise<ExportOutcome> {
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
    // Read to the end so the connection can be reused, and never shown (net/outboundOutcome.ts):
    // not even a 2xx body, which a collector's partial-success note would be the only use of.
    await response.arrayBuffer().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      latencyMs: latency(),
      message: ok ? null : statusClassText(response.status),
      retryable: response.status >= 500 || response.status === 429,
    };
  } catch (error) {
    const message = outboundFailureText(error);
    return {
      ok: false,
      statusCode: null,
      latencyMs: latency(),
      message,
      retryable: (error as { code?: string }).code !== 'outbound_blocked',
    };
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
export class OtlpHttpMetricExporter implements PushMetricExporter {
  constructor(
    private readonly settings: ExporterSettings,
    private readonly outbound: OutboundClient,
    private readonly tally: ExportTallySink,
  ) {}

  export(metrics: ResourceMetrics, resultCallback: (result: { code: number; error?: Error }) => void): void {
    const points = pointCount(metrics);
    if (points === 0) {
      resultCallback({ code: 0 });
      return;
    }
    const serializer = this.settings.protocol === 'http/json' ? JsonMetricsSerializer : ProtobufMetricsSerializer;
    const body = serializer.serializeRequest(metrics) ?? new Uint8Array();
    void postOtlp(
      this.outbound,
      signalUrl(this.settings.endpoint, 'metrics'),
      this.settings.protocol,
      this.settings.headers,
      body,
    ).then((outcome) => {
      this.tally(
        this.settings.id,
        outcome.ok
          ? { metricPoints: points, succeededAt: new Date(), error: null }
          : { failed: 1, error: `metrics: ${outcome.message}` },
      );
      resultCallback(outcome.ok ? { code: 0 } : { code: 1, error: new Error(outcome.message ?? 'export failed') });
    });
  }

  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}
