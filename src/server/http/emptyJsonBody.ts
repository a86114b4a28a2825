import type { FastifyInstance } from 'fastify';

/**
 * SPEC §7 sends some calls with "an empty body" (notifications' mark-all-read, schemas' discover)
 * while clients still set Content-Type: application/json. Inside the scope this is registered on, such a body reads as {}
 * instead of Fastify's 400; any other body goes through the default (poisoning-safe) JSON parser.
 */
export function acceptEmptyJsonBodies(scope: FastifyInstance): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    return parseJson(request, text, done);
  });
}
