import type { ApiErrorBody, ApiErrorCode } from '../../contract/errors';

/** An error whose message is safe to show the caller (4xx). Anything else becomes a generic 5xx. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: ApiErrorCode,
    readonly fields?: Record<string, string>,
    /** Sent as Retry-After (seconds) with the answer; every 429 carries one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    return this.fields
      ? { message: this.message, code: this.code, fields: this.fields }
      : { message: this.message, code: this.code };
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new HttpError(400, message, 'bad_request', fields);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message, 'unauthorized');
export const forbidden = (message: string, code: ApiErrorCode = 'forbidden') => new HttpError(403, message, code);
export const notFound = (message = 'Not found') => new HttpError(404, message, 'not_found');
export const conflict = (message: string, fields?: Record<string, string>) =>
  new HttpError(409, message, 'conflict', fields);
export const tooManyRequests = (message: string, retryAfterSeconds = 60) =>
  new HttpError(429, message, 'too_many_requests', undefined, retryAfterSeconds);
