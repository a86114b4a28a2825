import type { FastifyContextConfig } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { tooManyRequests } from '../http/errors';

// Per-client request limits on the sign-in surface (issue 16 item 6), with @fastify/rate-limit
// keyed by the client address (IPv6 by /56, the plugin's default grouping): one client cannot
// spray emails at login, mass-register, flood forgot-password mail or grind refresh tokens. The
// answer is a 429 with Retry-After, like every 429 of the API. Counters live in each instance's
// memory: behind N instances a client gets N times the budget (docs/security.md).
export const AUTH_RATE_WINDOW_MS = 60_000;

export function authRateLimit(perMinute: number): FastifyContextConfig {
  const rateLimit: RateLimitOptions = {
    max: perMinute,
    timeWindow: AUTH_RATE_WINDOW_MS,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return tooManyRequests(`Too many requests from this address. Try again in ${seconds} seconds.`, seconds);
    },
  };
  return { rateLimit };
}
