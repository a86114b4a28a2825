// A stand-in for the Toolscope server at the fetch boundary: the real store, base query and
// endpoints run; only the network answers come from these handlers. Unrouted calls fail the test.
export interface FakeResponse {
  status?: number;
  body?: unknown;
  /** A body sent as it is (a CSV download), instead of `body` as JSON. */
  text?: string;
  contentType?: string;
}
export type FakeHandler = (request: {
  url: URL;
  method: string;
  body: unknown;
}) => FakeResponse | Promise<FakeResponse>;

export interface FakeApi {
  /** Calls seen so far, as "METHOD /path". */
  calls: string[];
  on(method: string, path: string, handler: FakeHandler | FakeResponse): void;
  restore(): void;
}

/**
 * jsdom has no EventSource. The shell opens the live stream; this one connects to nothing and
 * stays "connecting", like a server that has not answered yet.
 */
class SilentEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = SilentEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {}
  addEventListener(): void {}
  removeEventListener(): void {}
  close(): void {
    this.readyState = SilentEventSource.CLOSED;
  }
}

export function installFakeApi(): FakeApi {
  const routes = new Map<string, FakeHandler>();
  const calls: string[] = [];
  const original = global.fetch;
  const globals = globalThis as { EventSource?: unknown };
  const originalEventSource = globals.EventSource;
  if (!originalEventSource) globals.EventSource = SilentEventSource;

  global.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init?.method ?? 'GET').toUpperCase();
    const key = `${method} ${url.pathname}`;
    calls.push(key);
    const handler = routes.get(key);
    if (!handler)
      return new Response(JSON.stringify({ message: `No fake for ${key}`, code: 'not_found' }), { status: 404 });
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const answer = await handler({ url, method, body });
    const status = answer.status ?? 200;
    // A 204/205/304 answer must have no body at all (the Response constructor refuses even '').
    const bodyless = status === 204 || status === 205 || status === 304;
    const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    return new Response(bodyless ? null : text, {
      status,
      headers: { 'Content-Type': answer.contentType ?? 'application/json' },
    });
  };

  return {
    calls,
    on(method, path, handler) {
      routes.set(`${method.toUpperCase()} ${path}`, typeof handler === 'function' ? handler : () => handler);
    },
    restore() {
      global.fetch = original;
      globals.EventSource = originalEventSource;
    },
  };
}

/** An unsigned JWT-shaped token whose `exp` lies `secondsAhead` in the future. */
export function fakeAccessToken(secondsAhead = 3600): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'user-1', typ: 'access', iat: now, exp: now + secondsAhead, jti: 'j' })}.signature`;
}
