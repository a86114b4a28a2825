// A fake `fetch` for unit tests of the client's data layer: the real base query, store and
// endpoints run; answers come from per-route handlers. Routes are "METHOD /path" (no query).

export interface RecordedRequest {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  /** Parsed JSON body, the raw string when not JSON, or undefined. */
  body: unknown;
}

export type FakeAnswer = Response | Promise<Response>;
export type FakeRoute = (request: RecordedRequest) => FakeAnswer;

export interface FakeFetch {
  requests: RecordedRequest[];
  /** Requests seen for one route, e.g. count('POST /api/v1/auth/refresh'). */
  count(route: string): number;
  on(route: string, handler: FakeRoute | Response): void;
  restore(): void;
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export function textResponse(text: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers });
}

export function installFakeFetch(): FakeFetch {
  const routes = new Map<string, FakeRoute>();
  const requests: RecordedRequest[] = [];
  const original = globalThis.fetch;

  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init?.method ?? 'GET').toUpperCase();
    let body: unknown;
    if (typeof init?.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const request: RecordedRequest = { method, path: url.pathname, url, headers: new Headers(init?.headers), body };
    requests.push(request);
    const handler = routes.get(`${method} ${url.pathname}`);
    if (!handler)
      return jsonResponse({ message: `No fake route for ${method} ${url.pathname}`, code: 'not_found' }, 404);
    // A fresh Response per call: a body can be read only once.
    const answer = await handler(request);
    return answer.clone();
  };

  return {
    requests,
    count: (route) => requests.filter((r) => `${r.method} ${r.path}` === route).length,
    on(route, handler) {
      routes.set(route, typeof handler === 'function' ? handler : () => handler);
    },
    restore() {
      globalThis.fetch = original;
    },
  };
}

/** An unsigned JWT-shaped token whose `exp` lies `secondsAhead` from now (negative: expired). */
export function fakeJwt(secondsAhead: number, subject = 'user-1'): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: subject, typ: 'access', iat: now, exp: now + secondsAhead, jti: `j${Math.random()}` })}.sig`;
}
