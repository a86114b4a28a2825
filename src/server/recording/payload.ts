import type { JsonRpcMessage } from '../proxy/jsonRpc';

// How much of a message the recorder keeps, and what a tool call's outcome was.

/** JSON text safe for a jsonb column, cut to `limit` characters (then stored as a JSON string). */
export function payloadText(message: JsonRpcMessage, rawText: string | undefined, limit: number): { text: string; truncated: boolean } {
  let text = rawText ?? JSON.stringify(message);
  // jsonb cannot hold NUL; keep the rest of the message rather than failing the batch.
  if (text.includes('\\u0000')) text = text.replace(/\\u0000/g, '\\ufffd');
  if (text.length <= limit) return { text, truncated: false };
  return { text: JSON.stringify(text.slice(0, limit)), truncated: true };
}

/** A tool result kept whole up to `limit` characters of JSON, else its cut text. */
export function boundedJson(value: unknown, limit: number): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  if (text === undefined) return null;
  if (text.length <= limit) return text.includes('\\u0000') ? JSON.parse(text.replace(/\\u0000/g, '\\ufffd')) : value;
  return { truncated: true, preview: text.slice(0, limit).replace(/\u0000/g, '\ufffd') };
}

/** ~4 bytes per token: the rule of thumb for English text and JSON in common tokenizers. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** The error text of a failed call: a JSON-RPC error, or a tool result flagged isError. */
export function toolCallError(response: JsonRpcMessage): string | null {
  if (response.error) return String(response.error.message ?? 'Error').slice(0, 2000);
  const result = response.result as { isError?: unknown; content?: unknown } | undefined;
  if (result && result.isError === true) {
    const content = Array.isArray(result.content) ? result.content : [];
    const text = content.find((c): c is { type: 'text'; text: string } => typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'text');
    return (text?.text ?? 'The tool reported an error').slice(0, 2000);
  }
  return null;
}
