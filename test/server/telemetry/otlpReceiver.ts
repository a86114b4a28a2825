import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeMetrics, decodeSpans, type OtlpMetric, type OtlpSpan } from './otlpProto';

// An OTLP/HTTP collector written for the tests: it keeps every request it receives (path, content
// type, body, headers) and answers with the status it was given.

export interface ReceivedExport {
  path: string;
  contentType: string;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

export interface OtlpReceiver {
  url: string;
  received: ReceivedExport[];
  /** Every span received on `path` so far, decoded from protobuf. */
  spans(path?: string): OtlpSpan[];
  /** Every metric received on `path` so far, decoded from protobuf. */
  metrics(path?: string): OtlpMetric[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(status = 200): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: String(req.headers['content-type']),
        body: Buffer.concat(chunks),
        headers: req.headers,
      });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 200 ? '{}' : '{"message":"nope"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    spans: (path = '/v1/traces') => received.filter((r) => r.path === path).flatMap((r) => decodeSpans(r.body)),
    metrics: (path = '/v1/metrics') => received.filter((r) => r.path === path).flatMap((r) => decodeMetrics(r.body)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export const hex = (bytes: Uint8Array | string) =>
  typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('hex');

/** Polls `probe` until it returns something (spans arrive when the exporter sends its batch). */
export async function waitFor<T>(probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
