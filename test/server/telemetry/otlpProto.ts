// Decoding OTLP protobuf with the protocol's official .proto definitions (compiled by protobufjs
// into otlp-transformer 0.52's generated root, installed as `otlp-proto-definitions`). The
// generated typings only say "a Root", so the decoded shapes the tests read are declared here.
import * as root from 'otlp-proto-definitions/build/src/generated/root';

export interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: unknown; boolValue?: boolean; doubleValue?: number };
}
export interface OtlpSpan {
  name: string;
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId?: Uint8Array;
  kind: number;
  status?: { code?: number; message?: string };
  attributes: OtlpAttribute[];
}
export interface OtlpHistogramPoint {
  count: number | { toNumber(): number };
  attributes: OtlpAttribute[];
  explicitBounds: number[];
}
export interface OtlpMetric {
  name: string;
  unit?: string;
  histogram?: { dataPoints: OtlpHistogramPoint[] };
  sum?: { dataPoints: { attributes: OtlpAttribute[] }[] };
}

interface Decoder<T> {
  decode(bytes: Uint8Array): T;
}
const proto = (
  root as unknown as {
    opentelemetry: { proto: { collector: Record<string, Record<string, Record<string, unknown>>> } };
  }
).opentelemetry.proto;

const traceRequest = proto.collector.trace.v1.ExportTraceServiceRequest as Decoder<{
  resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
}>;
const metricsRequest = proto.collector.metrics.v1.ExportMetricsServiceRequest as Decoder<{
  resourceMetrics: { scopeMetrics: { metrics: OtlpMetric[] }[] }[];
}>;

export function decodeSpans(body: Uint8Array): OtlpSpan[] {
  return traceRequest.decode(body).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

export function decodeMetrics(body: Uint8Array): OtlpMetric[] {
  return metricsRequest.decode(body).resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
}

function intOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'number' ? value : (value as { toNumber(): number }).toNumber();
}

export function attributesOf(list: OtlpAttribute[] | null | undefined): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map((a) => [
      a.key,
      // int64 decodes as a Long: a number here (ports, counts) so tests compare plain values.
      a.value.stringValue ?? intOf(a.value.intValue) ?? a.value.boolValue ?? a.value.doubleValue,
    ]),
  );
}
