import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors';

// The API's JSON bodies, checked before any handler or schema sees them (issue 16 item 8): a body
// nested 100,000 deep overflowed the stack in validation (500), and a NUL character in any string
// failed PostgreSQL's text and jsonb types (500). Both are the caller's mistake: 400 with a message.
// The proxy's bodies are not parsed here (its scope has its own parser: they are relayed as bytes).
export const MAX_JSON_DEPTH = 64;
export const JSON_TOO_DEEP = `JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`;
export const JSON_HAS_NUL = 'Text must not contain the NUL character (\\u0000)';

/** Deepest nesting of arrays/objects in JSON text (strings skipped), stopping once past `limit`. */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/** Whether any string (key or value) holds NUL; the value's depth is already bounded. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, inner]) => key.includes('\u0000') || containsNul(inner));
  return false;
}

type Done = (error: Error | null, body?: unknown) => void;

/** Replaces the scope's application/json parser with the default one behind both checks. */
export function installSafeJsonParser(scope: FastifyInstance, options: { emptyAsObject?: boolean } = {}): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: Done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (options.emptyAsObject && text.trim() === '') {
        done(null, {});
        return;
      }
      if (jsonDepthExceeds(text)) {
        done(badRequest(JSON_TOO_DEEP, { body: JSON_TOO_DEEP }));
        return;
      }
      // Fastify's default parser answers through the callback (its type also allows a promise).
      void parseJson(request, text, (error: Error | null, parsed?: unknown) => {
        if (error) {
          done(error);
          return;
        }
        if (containsNul(parsed)) {
          done(badRequest(JSON_HAS_NUL, { body: JSON_HAS_NUL }));
          return;
        }
        done(null, parsed);
      });
    },
  );
}
