import type { FastifyInstance } from 'fastify';
import { installSafeJsonParser } from './safeJson';

/**
 * SPEC §7 sends some calls with "an empty body" (notifications' mark-all-read, schemas' discover)
 * while clients still set Content-Type: application/json. Inside the scope this is registered on, such a body reads as {}
 * instead of Fastify's 400; any other body goes through the default (poisoning-safe) JSON parser,
 * behind the depth and NUL checks every API body gets (safeJson.ts).
 */
export function acceptEmptyJsonBodies(scope: FastifyInstance): void {
  installSafeJsonParser(scope, { emptyAsObject: true });
}
