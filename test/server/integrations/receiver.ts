import http from 'node:http';
import type { AddressInfo } from 'node:net';

// An HTTP receiver on 127.0.0.1 that records what it is sent and answers with scripted statuses
// (the last one repeats): a Slack, PagerDuty or webhook endpoint as seen from Toolscope.
export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Statuses to answer with, in order; the last one repeats. */
  script: { status: number; headers?: Record<string, string>; body?: string }[];
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(script: Receiver['script'] = [{ status: 200 }]): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver = { requests, script } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const step = receiver.script[Math.min(requests.length - 1, receiver.script.length - 1)];
      res.writeHead(step.status, { 'content-type': 'text/plain', ...step.headers });
      res.end(step.body ?? (step.status < 300 ? 'ok' : 'nope'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.waitForRequests = async (count, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (requests.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return requests;
  };
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

export async function waitUntil<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
