import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The plainest load balancer: each request goes to the next backend in turn — no stickiness, no
// knowledge of MCP — bodies and answers (SSE streams included) piped through as they come.
export interface Balancer {
  url: string;
  /** Requests sent to each backend, by method: what proves a session crossed instances. */
  sent: { backend: number; method: string }[];
  close(): Promise<void>;
}

export async function startRoundRobinBalancer(backends: string[]): Promise<Balancer> {
  let next = 0;
  const sent: Balancer['sent'] = [];
  const server = http.createServer((req, res) => {
    const backend = next;
    next = (next + 1) % backends.length;
    sent.push({ backend, method: req.method ?? '' });
    const target = new URL(req.url ?? '/', backends[backend]);
    const headers = { ...req.headers, host: target.host };
    const upstream = http.request(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
