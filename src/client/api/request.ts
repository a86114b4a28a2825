import { ErrorText, type ApiErrorBody } from '../../contract/errors';
import { env } from '../env';
import type { ApiError } from './apiError';

type QueryParamValue = string | number | boolean | null | undefined;

/** What an endpoint's `query` returns: a path, or a request description. */
export interface ApiRequestArgs {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; URLSearchParams as a form; FormData as multipart. */
  body?: unknown;
  /** Added to the query string; null and undefined values are left out. */
  params?: Record<string, QueryParamValue>;
  headers?: Record<string, string>;
  /** false for the calls made before sign-in (login, register, refresh, health, config). */
  authenticate?: boolean;
  /** 'text': the body as it came (a CSV download), not parsed as JSON. */
  responseType?: 'json' | 'text';
  /** Each piece of a text body as it arrives (a long export's progress); the whole text is still the result. */
  onTextChunk?: (chunk: string) => void;
}
export type ApiRequest = string | ApiRequestArgs;

export type ApiResult<T = unknown> = { data: T; error?: undefined } | { error: ApiError; data?: undefined };

export function normalizeRequest(request: ApiRequest): ApiRequestArgs {
  return typeof request === 'string' ? { url: request } : request;
}

export function buildUrl(url: string, params?: ApiRequestArgs['params']): string {
  const base = /^https?:\/\//.test(url) ? url : `${env.apiBase}${url}`;
  if (!params) return base;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const query = search.toString();
  if (!query) return base;
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

function encodeBody(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (body instanceof URLSearchParams || body instanceof FormData || typeof body === 'string') return body;
  headers.set('Content-Type', 'application/json');
  return JSON.stringify(body);
}

/** SPEC §8: the message comes from body.message, else body.error, else the raw body, else 'Unknown error'. */
export function messageFromErrorBody(text: string): { message: string; body?: Partial<ApiErrorBody> } {
  const trimmed = text.trim();
  if (!trimmed) return { message: ErrorText.unknownError };
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const fromField = [record.message, record.error].find((v) => typeof v === 'string' && v.trim() !== '');
      return { message: (fromField as string | undefined) ?? trimmed, body: record };
    }
    return { message: trimmed };
  } catch {
    return { message: trimmed };
  }
}

function retryAfterSeconds(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function httpError(response: Response, text: string): ApiError {
  const { message, body } = messageFromErrorBody(text);
  const error: ApiError = {
    status: response.status,
    message: ErrorText.apiError(response.status, message),
    serverMessage: message,
  };
  if (body && typeof body.code === 'string') error.code = body.code;
  if (body && body.fields && typeof body.fields === 'object') error.fields = body.fields;
  if (response.status === 429) error.retryAfterSeconds = retryAfterSeconds(response);
  return error;
}

/** The body as text, handing each decoded piece to `onChunk` as it arrives. */
async function readInChunks(response: Response, onChunk: (chunk: string) => void): Promise<string> {
  if (!response.body) {
    const text = await response.text();
    onChunk(text);
    return text;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    const piece = decoder.decode(value, { stream: !done });
    if (piece) {
      pieces.push(piece);
      onChunk(piece);
    }
    if (done) return pieces.join('');
  }
}

/**
 * One HTTP exchange with the API: no refresh, no retry (baseQuery adds those).
 * Success bodies are JSON; an empty success body gives the status, or nothing for DELETE (SPEC §7).
 */
export async function sendApiRequest(
  request: ApiRequest,
  { accessToken, signal }: { accessToken: string | null; signal?: AbortSignal },
): Promise<ApiResult> {
  const args = normalizeRequest(request);
  const method = args.method ?? 'GET';
  const headers = new Headers({ Accept: 'application/json', ...args.headers });
  if (accessToken && args.authenticate !== false) headers.set('Authorization', `Bearer ${accessToken}`);
  const body = encodeBody(args.body, headers);

  let response: Response;
  try {
    response = await fetch(buildUrl(args.url, args.params), { method, headers, body, signal });
  } catch (cause) {
    const message = cause instanceof Error && cause.message ? cause.message : 'Network error';
    return { error: { status: 'FETCH_ERROR', message } };
  }

  let text: string;
  try {
    text = args.onTextChunk && response.ok ? await readInChunks(response, args.onTextChunk) : await response.text();
  } catch (cause) {
    const message = cause instanceof Error && cause.message ? cause.message : 'Network error';
    return { error: { status: 'FETCH_ERROR', message } };
  }

  if (!response.ok) return { error: httpError(response, text) };
  if (args.responseType === 'text') return { data: text };
  // "Nothing" for DELETE is null: RTK Query treats `data: undefined` as a broken base query.
  if (text.trim() === '') return { data: method === 'DELETE' ? null : { status: response.status } };
  try {
    return { data: JSON.parse(text) as unknown };
  } catch {
    return { error: { status: 'PARSING_ERROR', message: ErrorText.invalidJson } };
  }
}
