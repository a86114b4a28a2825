import { withRetryPolicy, queryRetryDelayMs } from '../../../src/client/api/retryPolicy';
import type { ApiError } from '../../../src/client/api/apiError';
import { fakeBaseQueryApi } from './baseQueryApi';

type Outcome = { data: unknown } | { error: ApiError };

/** A base query answering from a script, counting its calls. */
function scripted(...outcomes: Outcome[]) {
  const calls: number[] = [];
  const baseQuery = jest.fn(() => {
    calls.push(Date.now());
    return Promise.resolve((outcomes.length > 1 ? outcomes.shift() : outcomes[0]) as Outcome);
  });
  return { baseQuery, calls };
}

const serverError: Outcome = { error: { status: 500, message: 'API Error 500: Internal error' } };
const ok: Outcome = { data: 'ok' };

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Starts a call and returns its promise plus a probe of how many attempts happened so far. */
function start(outcomes: Outcome[], type: 'query' | 'mutation' = 'query', extraOptions = {}) {
  const { baseQuery, calls } = scripted(...outcomes);
  const promise = withRetryPolicy(baseQuery)('/x', fakeBaseQueryApi(type).api, extraOptions);
  return { promise, attempts: () => baseQuery.mock.calls.length, calls };
}

describe('queries', () => {
  it('retry a 5xx up to 3 attempts in all, waiting 1000 ms then 2000 ms', async () => {
    const t0 = Date.now();
    const run = start([serverError]);
    await jest.advanceTimersByTimeAsync(0);
    expect(run.attempts()).toBe(1);
    await jest.advanceTimersByTimeAsync(999);
    expect(run.attempts()).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(run.attempts()).toBe(2);
    await jest.advanceTimersByTimeAsync(1999);
    expect(run.attempts()).toBe(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(run.attempts()).toBe(3);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(run.attempts()).toBe(3);
    expect(await run.promise).toEqual(serverError);
    expect(run.calls.map((at) => at - t0)).toEqual([0, 1000, 3000]);
  });

  it('stop retrying as soon as an attempt succeeds', async () => {
    const run = start([serverError, ok]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(await run.promise).toEqual(ok);
    expect(run.attempts()).toBe(2);
  });

  it.each([400, 401, 403, 404, 409, 422])('are not retried on %i', async (status) => {
    const run = start([{ error: { status, message: `API Error ${status}: no` } }]);
    await jest.advanceTimersByTimeAsync(60_000);
    await run.promise;
    expect(run.attempts()).toBe(1);
  });

  it('are retried on 429 (Retry-After is not waited for)', async () => {
    const run = start([{ error: { status: 429, message: 'API Error 429: slow down', retryAfterSeconds: 120 } }, ok]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(await run.promise).toEqual(ok);
  });

  it('are retried on network failures', async () => {
    const run = start([{ error: { status: 'FETCH_ERROR', message: 'Failed to fetch' } }, ok]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(await run.promise).toEqual(ok);
  });

  it('are never retried once the session ended', async () => {
    const run = start([{ error: { status: 500, message: 'Token refresh failed: 500', sessionEnded: true } }]);
    await jest.advanceTimersByTimeAsync(60_000);
    await run.promise;
    expect(run.attempts()).toBe(1);
  });

  it('double the delay from 1000 ms, capped at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(queryRetryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('mutations', () => {
  it('retry once, exactly 1 s later', async () => {
    const run = start([serverError], 'mutation');
    await jest.advanceTimersByTimeAsync(999);
    expect(run.attempts()).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(run.attempts()).toBe(2);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(run.attempts()).toBe(2);
    expect(await run.promise).toEqual(serverError);
  });

  it('are not retried on a 4xx refusal (bad input stays bad)', async () => {
    const run = start([{ error: { status: 400, message: 'API Error 400: Invalid input' } }], 'mutation');
    await jest.advanceTimersByTimeAsync(5_000);
    await run.promise;
    expect(run.attempts()).toBe(1);
  });

  it('can opt out per endpoint', async () => {
    const run = start([serverError], 'mutation', { maxAttempts: 1 });
    await jest.advanceTimersByTimeAsync(5_000);
    await run.promise;
    expect(run.attempts()).toBe(1);
  });
});
