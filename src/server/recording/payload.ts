import type { JsonRpcMessage } from '../proxy/jsonRpc';

// How much of a message the recorder keeps, and what a tool call's outcome was.

/** A message as the recorder stores it: its JSON text, cut to the limit, jsonb-safe. */
export interface StoredPayload {
  /** The exact JSON text (or, when truncated, its first `limit` characters). */
  text: string;
  /** Kept as text rather than JSON: cut at the limit, or nested deeper than PostgreSQL parses. */
  truncated: boolean;
  /**
   * When the text had escapes jsonb refuses (NUL, lone surrogates; stored as U+FFFD): the message
   * as the stored text reads back, so what is taken from it (arguments, result) matches the API.
   */
  cleaned: JsonRpcMessage | null;
}

// \u0000, and \uD800–\uDFFF escapes that are not a high + low pair: valid JSON, refused by jsonb.
// Only real escapes count: the backslash must not itself be escaped (an odd run of backslashes).
const JSONB_REFUSED_ESCAPES =
  /(?<=(?:^|[^\\])(?:\\\\)*)(?:\\u0000|\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})/g;

/**
 * Deeper nesting than this is kept as text: PostgreSQL's JSON parser recurses per level (deep
 * enough input fails the cast, or exhausts PGlite's stack), and every read casts stored payloads.
 */
export const MAX_STORED_DEPTH = 512;

export function storedPayload(message: JsonRpcMessage, rawText: string | undefined, limit: number): StoredPayload {
  let text = rawText ?? JSON.stringify(message);
  // Payloads are read back as jsonb: what jsonb cannot hold must not make a read (or the batch) fail.
  let cleaned: JsonRpcMessage | null = null;
  if (text.includes('\\u') && text.search(JSONB_REFUSED_ESCAPES) !== -1) {
    text = text.replace(JSONB_REFUSED_ESCAPES, '\\ufffd');
    cleaned = JSON.parse(text) as JsonRpcMessage;
  }
  if (text.length <= limit && !nestedDeeperThan(text, MAX_STORED_DEPTH)) return { text, truncated: false, cleaned };
  return { text: text.slice(0, limit), truncated: true, cleaned };
}

/**
 * A value taken from a stored message (a call's arguments or result) as reading the stored text
 * back gives it (storedCallSql.ts): the start of the text when it was kept as text.
 */
export function storedValue(payload: StoredPayload, value: unknown): unknown {
  if (payload.truncated) return { truncated: true, preview: payload.text };
  return value === undefined ? null : value;
}

/** Whether JSON text nests arrays/objects deeper than `max` (brackets inside strings do not count). */
export function nestedDeeperThan(text: string, max: number): boolean {
  if (text.length <= 2 * max) return false; // too short to open and close that many
  // Fewer opening brackets than the limit cannot nest deeper (the common case: counted with native
  // indexOf, not char by char).
  let brackets = 0;
  for (const open of ['[', '{']) {
    for (let i = text.indexOf(open); i !== -1 && brackets <= max; i = text.indexOf(open, i + 1)) brackets++;
  }
  if (brackets <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** The payload for a jsonb column: a cut text is not JSON, so it is kept as a JSON string of itself. */
export function payloadJsonText(payload: StoredPayload): string {
  return payload.truncated ? JSON.stringify(payload.text) : payload.text;
}

/** ~4 bytes per token: the rule of thumb for English text and JSON in common tokenizers. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** The error text of a failed call: a JSON-RPC error, or a tool result flagged isError. */
export function toolCallError(response: JsonRpcMessage): string | null {
  if (response.error !== undefined && response.error !== null) {
    const message = response.error.message ?? 'Error';
    return (typeof message === 'string' ? message : JSON.stringify(message)).slice(0, 2000);
  }
  const result = response.result as { isError?: unknown; content?: unknown } | undefined;
  if (result && result.isError === true) {
    const content = Array.isArray(result.content) ? result.content : [];
    const text = content.find(
      (c): c is { type: 'text'; text: string } =>
        typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'text',
    );
    return (text?.text ?? 'The tool reported an error').slice(0, 2000);
  }
  return null;
}
