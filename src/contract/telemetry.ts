import { z } from 'zod';
import { httpUrlField } from './httpUrl';

// SPEC §7 Telemetry exporters: OTLP/HTTP destinations for the spans and metrics of a workspace's
// MCP traffic (docs/telemetry.md). Header values (API keys) are write-only: answers show names only.
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];
export const TELEMETRY_SIGNALS = ['traces', 'metrics'] as const;
export type TelemetrySignal = (typeof TELEMETRY_SIGNALS)[number];

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the exporter sets itself, or that would change how the request travels. */
const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'te',
  'expect',
  'upgrade',
  'proxy-authorization',
  'keep-alive',
]);

const endpoint = httpUrlField({
  withoutCredentials: true,
  message: 'Expected an http or https URL without credentials (put keys in headers)',
});

export const ExporterHeaders = z
  .record(z.string(), z.string().max(4096, 'Header values are at most 4096 characters'))
  .refine((headers) => Object.keys(headers).length <= 20, 'At most 20 headers')
  .superRefine((headers, ctx) => {
    for (const [name, value] of Object.entries(headers)) {
      if (!HEADER_NAME.test(name))
        ctx.addIssue({ code: 'custom', message: `Not a valid header name: ${name}`, path: [name] });
      else if (RESERVED.has(name.toLowerCase()))
        ctx.addIssue({ code: 'custom', message: `${name} is set by Toolscope`, path: [name] });
      if (/[\r\n]/.test(value) || value.includes('\u0000'))
        ctx.addIssue({ code: 'custom', message: 'Header values must not contain line breaks', path: [name] });
    }
  });

const name = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(100, 'Must be at most 100 characters')
  .refine((value) => !hasControlCharacter(value), 'Must not contain control characters');

export const CreateExporterBody = z.object({
  name,
  /** The collector's base URL: /v1/traces and /v1/metrics are appended (as OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint,
  protocol: z.enum(OTLP_PROTOCOLS).default('http/protobuf'),
  headers: ExporterHeaders.default({}),
  signals: z
    .array(z.enum(TELEMETRY_SIGNALS))
    .min(1, 'Choose traces, metrics or both')
    .max(2)
    .default(['traces', 'metrics']),
  samplingRatio: z
    .number({ error: 'Expected a number' })
    .min(0, 'Must be at least 0')
    .max(1, 'Must be at most 1')
    .default(1),
  enabled: z.boolean().default(true),
});
export type CreateExporterBody = z.input<typeof CreateExporterBody>;

/** Any field; `headers`, when sent, replaces the stored set (a value of `••••` keeps that header's stored value). */
export const UpdateExporterBody = z.object({
  name: name.optional(),
  endpoint: endpoint.optional(),
  protocol: z.enum(OTLP_PROTOCOLS).optional(),
  headers: ExporterHeaders.optional(),
  signals: z.array(z.enum(TELEMETRY_SIGNALS)).min(1, 'Choose traces, metrics or both').max(2).optional(),
  samplingRatio: z
    .number({ error: 'Expected a number' })
    .min(0, 'Must be at least 0')
    .max(1, 'Must be at most 1')
    .optional(),
  enabled: z.boolean().optional(),
});
export type UpdateExporterBody = z.infer<typeof UpdateExporterBody>;

export const ExporterDto = z.object({
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  protocol: z.enum(OTLP_PROTOCOLS),
  /** Header names with masked values. */
  headers: z.record(z.string(), z.string()),
  signals: z.array(z.enum(TELEMETRY_SIGNALS)),
  samplingRatio: z.number(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExporterDto = z.infer<typeof ExporterDto>;
export const ExporterListResult = z.object({ exporters: z.array(ExporterDto) });

export const ExporterMetrics = z.object({
  exportedSpans: z.number().int(),
  exportedMetricPoints: z.number().int(),
  failedExports: z.number().int(),
  droppedSpans: z.number().int(),
  lastSuccessAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type ExporterMetrics = z.infer<typeof ExporterMetrics>;

export const ExporterTestResult = z.object({
  ok: z.boolean(),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number(),
  /** The collector's answer (partial success text or error), or why nothing came back. */
  message: z.string().nullable(),
});
export type ExporterTestResult = z.infer<typeof ExporterTestResult>;

/** Starting points for common backends; the user fills in their own endpoint and key. */
export interface ExporterPreset {
  id: string;
  label: string;
  endpoint: string;
  protocol: OtlpProtocol;
  /** Header names the backend expects, with a hint for the value. */
  headers: Record<string, string>;
  help: string;
}

export const EXPORTER_PRESETS: readonly ExporterPreset[] = [
  {
    id: 'otlp',
    label: 'OpenTelemetry Collector',
    endpoint: 'http://localhost:4318',
    protocol: 'http/protobuf',
    headers: {},
    help: "A collector's OTLP/HTTP receiver (port 4318 by default).",
  },
  {
    id: 'grafana',
    label: 'Grafana Cloud',
    endpoint: 'https://otlp-gateway-prod-eu-west-2.grafana.net/otlp',
    protocol: 'http/protobuf',
    headers: { Authorization: 'Basic base64(instanceId:token)' },
    help: 'The OTLP endpoint of your stack (Connections → OpenTelemetry); the token needs write scopes.',
  },
  {
    id: 'honeycomb',
    label: 'Honeycomb',
    endpoint: 'https://api.honeycomb.io',
    protocol: 'http/protobuf',
    headers: { 'x-honeycomb-team': 'your API key' },
    help: 'Use https://api.eu1.honeycomb.io in the EU.',
  },
  {
    id: 'datadog',
    label: 'Datadog (via the Agent)',
    endpoint: 'http://localhost:4318',
    protocol: 'http/protobuf',
    headers: {},
    help: 'The Datadog Agent with OTLP ingestion enabled receives OTLP/HTTP on port 4318.',
  },
  {
    id: 'langfuse',
    label: 'Langfuse',
    endpoint: 'https://cloud.langfuse.com/api/public/otel',
    protocol: 'http/protobuf',
    headers: { Authorization: 'Basic base64(publicKey:secretKey)' },
    help: 'Langfuse accepts traces over OTLP/HTTP (metrics are not ingested: choose traces only).',
  },
];

/** Whether the text holds a C0 control character (U+0000–U+001F). */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) if (value.charCodeAt(i) < 0x20) return true;
  return false;
}
