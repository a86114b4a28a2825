import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import {
  MUTATION_RETRY_DELAY_MS,
  QUERY_MAX_ATTEMPTS,
  QUERY_RETRY_BASE_MS,
  QUERY_RETRY_MAX_MS,
} from '../../contract/constants';
import type { ApiError } from './apiError';

/** A mutation is tried at most twice: once, then once more after 1 s (SPEC §8). */
export const MUTATION_MAX_ATTEMPTS = 2;

/** Per-endpoint override, e.g. `extraOptions: { maxAttempts: 1 }` for a call that must not repeat. */
export interface RetryExtraOptions {
  maxAttempts?: number;
}

/**
 * 4xx answers are the server's final word (bad input stays bad), except 429 (try later).
 * Network failures, 5xx and unreadable bodies may pass. A request that ended the session is final.
 */
export function isRetryableError(error: ApiError): boolean {
  if (error.sessionEnded || error.status === 'CLIENT_ERROR') return false;
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) return error.status === 429;
  return true;
}

/** Delay before retry number `retry` (1-based): 1000 ms, 2000 ms, 4000 ms … capped at 30 s. */
export function queryRetryDelayMs(retry: number): number {
  return Math.min(QUERY_RETRY_BASE_MS * 2 ** (retry - 1), QUERY_RETRY_MAX_MS);
}

/** Waits `ms`; true when the wait ran out, false when the request was aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The endpoint's own limit, or the SPEC's. RTK passes the endpoint's `extraOptions` as they are:
 * undefined for an endpoint that sets none, whatever BaseQueryFn's type says.
 */
function maxAttemptsOf(extraOptions: RetryExtraOptions | undefined, isMutation: boolean): number {
  return extraOptions?.maxAttempts ?? (isMutation ? MUTATION_MAX_ATTEMPTS : QUERY_MAX_ATTEMPTS);
}

/** Wraps a base query with the retry policy of SPEC §8/§9 (queries: 3 attempts; mutations: 2). */
export function withRetryPolicy<Args>(
  baseQuery: BaseQueryFn<Args, unknown, ApiError>,
): BaseQueryFn<Args, unknown, ApiError, RetryExtraOptions> {
  return async (args, api, extraOptions) => {
    const isMutation = api.type === 'mutation';
    const maxAttempts = maxAttemptsOf(extraOptions, isMutation);
    for (let attempt = 1; ; attempt += 1) {
      const result = await baseQuery(args, api, extraOptions);
      if (!result.error || attempt >= maxAttempts || !isRetryableError(result.error) || api.signal.aborted) {
        return result;
      }
      if (!(await sleep(isMutation ? MUTATION_RETRY_DELAY_MS : queryRetryDelayMs(attempt), api.signal))) return result;
    }
  };
}
