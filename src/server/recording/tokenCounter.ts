import { createHash } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { QueuedToolCall } from './rows';

// Token counts of what MCP traffic puts in an agent model's context (docs/analytics.md): a call's
// arguments (written by the model: output tokens), its result (read by the model: input tokens)
// and the tool definitions a tools/list returned (input on every turn). One real tokenizer,
// o200k_base (exact for current OpenAI models; other vendors' counts are estimates from it).
// Counted in the recorder's batch work, never on the proxy's path; each distinct definition once.

/** The protocol error codes of JSON-RPC: the request itself was wrong (OpenTelemetry MCP conventions' error.type). */
export const PROTOCOL_ERROR_CODES = new Set([-32700, -32600, -32601, -32602]);
export type ErrorClass = 'protocol' | 'server' | 'tool';

/** Tokens of a text the recorder kept only the start of: the start's tokens scaled to the whole size. */
function countScaled(preview: string, totalBytes: number): number {
  if (preview.length === 0) return 0;
  const tokens = countTokens(preview);
  const previewBytes = Buffer.byteLength(preview);
  return previewBytes >= totalBytes ? tokens : Math.round((tokens * totalBytes) / previewBytes);
}

function truncatedPreview(value: unknown): string | null {
  const cut = value as { truncated?: unknown; preview?: unknown } | null;
  return cut && typeof cut === 'object' && cut.truncated === true && typeof cut.preview === 'string' ? cut.preview : null;
}

/** The arguments as the model wrote them (their compact JSON). */
export function argumentTokens(call: QueuedToolCall): number {
  const preview = truncatedPreview(call.arguments);
  if (preview !== null) return countScaled(preview, call.request_bytes);
  if (call.arguments === null || call.arguments === undefined) return 0;
  return countTokens(JSON.stringify(call.arguments));
}

/**
 * What of a result reaches the model: the text of its content (a resource's text, other blocks as
 * JSON without their binary data), or the structured content when there is no text; for a JSON-RPC
 * error, its message. Images and audio are priced by the vendors per picture or second, not counted.
 */
export function resultText(result: unknown): string {
  if (result === null || result === undefined) return '';
  const value = result as { error?: { message?: unknown }; content?: unknown; structuredContent?: unknown };
  if (value.error && typeof value.error === 'object') return typeof value.error.message === 'string' ? value.error.message : JSON.stringify(value.error);
  const parts: string[] = [];
  if (Array.isArray(value.content)) {
    for (const block of value.content as { type?: unknown; text?: unknown; resource?: { text?: unknown; uri?: unknown } }[]) {
      if (!block || typeof block !== 'object') continue;
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'resource' && block.resource && typeof block.resource.text === 'string') parts.push(block.resource.text);
      else if (block.type === 'resource_link') parts.push(JSON.stringify(block));
    }
  }
  if (parts.length === 0 && value.structuredContent !== undefined) parts.push(JSON.stringify(value.structuredContent));
  return parts.join('\n');
}

export function resultTokens(call: QueuedToolCall): number {
  if (call.result === null || call.result === undefined) return 0;
  const preview = truncatedPreview(call.result);
  // A cut response is the JSON-RPC text of the whole message: its start stands for the rest.
  if (preview !== null) return countScaled(preview, call.response_bytes);
  const text = resultText(call.result);
  return text.length === 0 ? 0 : countTokens(text);
}

/** Why a call failed, as the OpenTelemetry MCP conventions separate it; null when it did not. */
export function errorClass(call: QueuedToolCall): ErrorClass | null {
  if (call.status !== 'error') return null;
  if (call.response_kind === 'error') {
    const code = (call.result as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'number' && PROTOCOL_ERROR_CODES.has(code) ? 'protocol' : 'server';
  }
  // Answered with a result flagged isError: the tool ran and reported a failure.
  if (call.response_kind === 'response') return 'tool';
  // No answer at all (session ended, id reused, upstream failed): the server failed the call.
  return 'server';
}

/**
 * Definition tokens by content hash: a server's tool list is the same text for every session, so
 * each distinct definition is tokenized once per version. Bounded (least recently used go first).
 */
export class DefinitionTokenCache {
  private readonly byHash = new Map<string, number>();
  tokenized = 0;

  constructor(private readonly limit = 20_000) {}

  /** Tokens and content hash of one tool definition (its JSON, as clients hand it to models). */
  measure(definition: unknown): { hash: string; tokens: number } {
    const text = JSON.stringify(definition) ?? '';
    const hash = createHash('sha1').update(text).digest('base64url');
    let tokens = this.byHash.get(hash);
    if (tokens === undefined) {
      tokens = countTokens(text);
      this.tokenized++;
      if (this.byHash.size >= this.limit) this.byHash.delete(this.byHash.keys().next().value as string);
    } else this.byHash.delete(hash);
    this.byHash.set(hash, tokens);
    return { hash, tokens };
  }
}
