import type { ApiErrorCode } from '../../contract/errors';

/**
 * The error every endpoint rejects with. `message` is the display text of SPEC §8
 * ('API Error 404: Server not found', 'Invalid JSON in response', …).
 * `serverMessage` and `fields` are the server's own words, for showing next to form fields.
 */
export interface ApiError {
  /** HTTP status, or what went wrong without one. */
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'CLIENT_ERROR';
  message: string;
  serverMessage?: string;
  code?: ApiErrorCode;
  fields?: Record<string, string>;
  /** Seconds from a 429's Retry-After header: read and reported, never acted on (SPEC §7). */
  retryAfterSeconds?: number;
  /** The session ended while answering this request (tokens cleared): never retried. */
  sessionEnded?: boolean;
}

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    'message' in value &&
    typeof (value as { message: unknown }).message === 'string'
  );
}

export function clientError(message: string): ApiError {
  return { status: 'CLIENT_ERROR', message };
}

/** A display text for anything a query, mutation or thunk rejected with. */
export function errorMessage(error: unknown, fallback = 'Unknown error'): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const message = error.message;
    if (typeof message === 'string' && message) return message;
  }
  return fallback;
}

/** Texts shown at a form's inputs, keyed by input name: a field without a mistake has none. */
export type FieldErrors = Partial<Record<string, string>>;

/** Field errors of a 4xx validation answer, keyed by input name (empty when none). */
export function fieldErrors(error: unknown): FieldErrors {
  return isApiError(error) && error.fields ? error.fields : {};
}
