import type { FastifyBaseLogger } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from './errors';

// What every answer of the app gets, whichever way it was served: Fastify's hooks and error
// handler (app.ts) call these, and so do the routes served below Fastify (rawRoutes.ts), so the
// two paths cannot drift apart.

/** The part of a reply these need (Fastify's reply has it; so does the raw path's). */
export interface AnswerReply {
  readonly statusCode: number;
  status(code: number): AnswerReply;
  header(name: string, value: string): AnswerReply;
  hasHeader(name: string): boolean;
  send(payload?: unknown): AnswerReply;
}

/** Just before an answer is sent (app.ts's onSend). */
export function beforeSend(reply: AnswerReply, closing: boolean): void {
  if (closing) reply.header('connection', 'close');
  // Every 429 says when to come back; the rate limiter and lock-outs give their own figure.
  if (reply.statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
}

/** An error a route threw or a request failed with, as the API's {message, code} answer. */
export function answerError(
  error: Error & { statusCode?: number },
  log: Pick<FastifyBaseLogger, 'error'>,
  reply: AnswerReply,
): AnswerReply {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const issuePath = (issue.params.issue as { path?: unknown[] } | null | undefined)?.path?.join('.');
      const key = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || issuePath || 'body';
      fields[key] ??= issue.message ?? 'Invalid value';
    }
    const first = Object.entries(fields).at(0);
    return reply
      .status(400)
      .send({ message: first ? `${first[0]}: ${first[1]}` : 'Invalid request', code: 'validation_failed', fields });
  }
  if (error instanceof HttpError) {
    if (error.retryAfterSeconds !== undefined)
      reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
    return reply.status(error.statusCode).send(error.toBody());
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = status === 413 ? 'payload_too_large' : status === 429 ? 'too_many_requests' : 'bad_request';
    return reply.status(status).send({ message: error.message, code });
  }
  log.error({ err: error }, 'request failed');
  return reply.status(500).send({ message: 'Internal server error', code: 'internal' });
}
