import { Paths } from '../contract/routes';

// The demo talks to Toolscope only through its public REST API, as a user's script would: the
// same calls the SPA makes, no database access, no internal module.
export class DemoApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class DemoApi {
  private token: string | undefined;

  constructor(readonly baseUrl: string) {}

  signedIn(accessToken: string): this {
    this.token = accessToken;
    return this;
  }

  async request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new DemoApiError(res.status, `${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }
}

export { Paths };

/** Thrown by a `waitUntil` probe to stop waiting at once (other errors are retried). */
export class GiveUp extends Error {}

/** Waits until `probe` returns a value (not undefined), polling; throws after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `Timed out waiting for ${what}${lastError ? `: ${lastError instanceof Error ? String(lastError) : JSON.stringify(lastError)}` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
