import http from 'node:http';

// A minimal EventSource for tests: a real HTTP GET, `data:` events parsed as JSON as they arrive.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- message data is whatever the test expects
export type LiveEvent = { type: string; data: any; [key: string]: unknown };

export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every message received so far, in order. */
  messages: LiveEvent[];
  /** Resolves with the first message (already received or later) matching; rejects after `withinMs`. */
  waitFor(predicate: (m: LiveEvent) => boolean, withinMs?: number): Promise<LiveEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export function openSse(url: string): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream' } }, (response) => {
      const messages: SseConnection['messages'] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let body = '';
      const ended = new Promise<void>((done) => {
        response.on('end', done);
        response.on('close', done);
        response.on('error', () => done());
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (data) messages.push(JSON.parse(data));
        }
        for (const wake of [...waiters]) wake();
      });
      const connection: SseConnection = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        messages,
        ended,
        waitFor(predicate, withinMs = 10_000) {
          return new Promise((found, fail) => {
            const check = () => {
              const hit = messages.find(predicate);
              if (!hit) return false;
              waiters.delete(check);
              clearTimeout(timer);
              found(hit);
              return true;
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(
                new Error(
                  `no matching live message within ${withinMs} ms; got ${JSON.stringify(messages.map((m) => m.type))}`,
                ),
              );
            }, withinMs);
            if (!check()) waiters.add(check);
          });
        },
        close: () => request.destroy(),
      };
      if ((response.statusCode ?? 0) >= 300) {
        response.on('end', () => {
          (connection as { body?: string }).body = body;
        });
      }
      resolve(connection);
    });
    request.on('error', reject);
  });
}

/** Reads a non-SSE answer (an error) in full. */
export function getJson(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (c: string) => (text += c));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      })
      .on('error', reject);
  });
}
