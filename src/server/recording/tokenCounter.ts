import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { countTokens as countWithSpecialCheck } from 'gpt-tokenizer/encoding/o200k_base';
import { TOKEN_SAMPLE_ABOVE_CHARS } from '../../contract/pricing';
import { ASCII_SELF_CHECK, countAsciiTokens, newPieceCache, type PieceCounter } from './o200kAscii';
import type { QueuedToolCall } from './rows';
import { resultImageTokens } from './imageTokens';

// Token counts of what MCP traffic puts in an agent model's context (docs/analytics.md): a call's
// arguments (written by the model: output tokens), its result (read by the model: input tokens)
// and the tool definitions a tools/list returned (input on every turn). One real tokenizer,
// o200k_base (exact for current OpenAI models; other vendors' counts are estimates from it).
// Counted in the recorder's batch work, never on the proxy's path; each distinct definition once.

/**
 * o200k_base tokens of a text, a special token's text ('<|endoftext|>') counted as ordinary text.
 * The tokenizer's default refuses such a text — it throws — and a result quoting one would have
 * failed its write; the check also cost ~15 % of the counting.
 */
export const TEXT_AS_IS = { disallowedSpecial: new Set<string>() };
export function countTokens(text: string): number {
  if (asciiPieces) {
    const tokens = countAsciiTokens(text, asciiPieces, pieceCache);
    if (tokens >= 0) return tokens;
  }
  return countWithSpecialCheck(text, TEXT_AS_IS);
}

/**
 * The tokenizer's per-piece steps, for ASCII texts cut without its regex (o200kAscii.ts); null
 * when the tokenizer does not expose them or the scan disagrees with it on the self-check texts.
 */
const pieceCache = newPieceCache();
const asciiPieces: PieceCounter | null = (() => {
  try {
    const api = createRequire(__filename)('gpt-tokenizer/encoding/o200k_base') as {
      default?: { bytePairEncodingCoreProcessor?: PieceCounter };
    };
    const pieces = api.default?.bytePairEncodingCoreProcessor;
    if (!pieces || typeof pieces.getBpeRankFromString !== 'function' || typeof pieces.bytePairEncode !== 'function')
      return null;
    const agrees = ASCII_SELF_CHECK.every((text) => {
      const tokens = countAsciiTokens(text, pieces, pieceCache);
      return tokens === -1 || tokens === countWithSpecialCheck(text, TEXT_AS_IS);
    });
    return agrees ? pieces : null;
  } catch {
    return null;
  }
})();

/** Whether ASCII texts are counted without the tokenizer's regex (o200kAscii.ts): for the tests. */
export const countsAsciiWithoutRegex = (): boolean => asciiPieces !== null;

/** The protocol error codes of JSON-RPC: the request itself was wrong (OpenTelemetry MCP conventions' error.type). */
export const PROTOCOL_ERROR_CODES = new Set([-32700, -32600, -32601, -32602]);
export type ErrorClass = 'protocol' | 'server' | 'tool';

/** A text to count, and the size in bytes of the whole it stands for when the recorder cut it (null: it is whole). */
export interface CountedText {
  text: string;
  totalBytes: number | null;
}

/** Tokens of a counted text: a cut text's tokens scaled to the size of the whole. */
export function scaleTokens(tokens: number, counted: CountedText): number {
  if (counted.totalBytes === null || counted.text.length === 0) return tokens;
  const previewBytes = Buffer.byteLength(counted.text);
  return previewBytes >= counted.totalBytes ? tokens : Math.round((tokens * counted.totalBytes) / previewBytes);
}

/** Windows of a sampled text: SAMPLE_WINDOWS of about WINDOW_CHARS each, evenly spaced. */
const SAMPLE_WINDOWS = 8;
const WINDOW_CHARS = 256;

/**
 * What to tokenize of a text, and what its count is multiplied by. Up to TOKEN_SAMPLE_ABOVE_CHARS
 * the whole text (exact). Beyond, evenly spaced windows, each starting and ending at a space or
 * line break (so no word is cut in two, which would count it as two tokens), joined, and scaled to
 * the text's length in characters: tokenizing costs ~0.25 µs a token, so a 100 KB result would
 * cost its write ~6 ms; the sample costs ~0.1 ms whatever the size. An estimate: labelled as one
 * (EffectivePrices.sampledAboveChars, docs/analytics.md "Token counting").
 */
export function sampleForCounting(text: string): { text: string; scale: number } {
  if (text.length <= TOKEN_SAMPLE_ABOVE_CHARS) return { text, scale: 1 };
  const stride = Math.floor(text.length / SAMPLE_WINDOWS);
  const windows: string[] = [];
  let sampled = 0;
  for (let w = 0; w < SAMPLE_WINDOWS; w++) {
    const start = nextBreak(text, w * stride);
    const end = nextBreak(text, Math.min(start + WINDOW_CHARS, text.length));
    if (end <= start) continue;
    windows.push(text.slice(start, end));
    sampled += end - start;
  }
  // A text without breaks to cut at is counted whole: there is no honest sample of it.
  if (sampled === 0 || sampled >= text.length / 2) return { text, scale: 1 };
  return { text: windows.join(''), scale: text.length / sampled };
}

/** The first space or line break at or after `from` (the text's end when none is near). */
function nextBreak(text: string, from: number): number {
  const limit = Math.min(text.length, from + 64);
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10) return i;
  }
  return limit === text.length ? text.length : from;
}

/** Tokens of a text: exact, or from its sample (sampleForCounting). */
export function textTokens(text: string, count: (text: string) => number = countTokens): number {
  if (text.length === 0) return 0;
  const sample = sampleForCounting(text);
  return sample.scale === 1 ? count(sample.text) : Math.round(count(sample.text) * sample.scale);
}

function tokensOf(counted: CountedText): number {
  return counted.text.length === 0 ? 0 : scaleTokens(textTokens(counted.text), counted);
}

function truncatedPreview(value: unknown): string | null {
  const cut = value as { truncated?: unknown; preview?: unknown } | null;
  return cut && typeof cut === 'object' && cut.truncated === true && typeof cut.preview === 'string'
    ? cut.preview
    : null;
}

/** The arguments as the model wrote them (their compact JSON). */
export function argumentText(call: QueuedToolCall): CountedText {
  const preview = truncatedPreview(call.arguments);
  if (preview !== null) return { text: preview, totalBytes: call.request_bytes };
  if (call.arguments === null || call.arguments === undefined) return { text: '', totalBytes: null };
  return { text: JSON.stringify(call.arguments), totalBytes: null };
}

export function argumentTokens(call: QueuedToolCall): number {
  return tokensOf(argumentText(call));
}

/**
 * What of a result reaches the model: the text of its content (a resource's text, other blocks as
 * JSON without their binary data), or the structured content when there is no text; for a JSON-RPC
 * error, its message. Images are added by their pixels (imageTokens.ts), not as text; audio adds none.
 */
export function resultText(result: unknown): string {
  if (result === null || result === undefined) return '';
  const value = result as { error?: { message?: unknown }; content?: unknown; structuredContent?: unknown };
  if (value.error && typeof value.error === 'object')
    return typeof value.error.message === 'string' ? value.error.message : JSON.stringify(value.error);
  const parts: string[] = [];
  if (Array.isArray(value.content)) {
    for (const block of value.content as ({
      type?: unknown;
      text?: unknown;
      resource?: { text?: unknown; uri?: unknown };
    } | null)[]) {
      if (!block || typeof block !== 'object') continue;
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'resource' && block.resource && typeof block.resource.text === 'string')
        parts.push(block.resource.text);
      else if (block.type === 'resource_link') parts.push(JSON.stringify(block));
    }
  }
  if (parts.length === 0 && value.structuredContent !== undefined) parts.push(JSON.stringify(value.structuredContent));
  return parts.join('\n');
}

/** What of the call's result is counted (a cut response: the JSON-RPC text of its start, standing for the whole). */
export function resultCountedText(call: QueuedToolCall): CountedText {
  if (call.result === null || call.result === undefined) return { text: '', totalBytes: null };
  const preview = truncatedPreview(call.result);
  if (preview !== null) return { text: preview, totalBytes: call.response_bytes };
  return { text: resultText(call.result), totalBytes: null };
}

/** A result's tokens: its text (above) and its images as the model receives them (imageTokens.ts). */
export function resultTokens(call: QueuedToolCall): number {
  return tokensOf(resultCountedText(call)) + resultImageTokens(call.result);
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
    // undefined (and a function) have no JSON: stringify gives undefined, whatever its type says.
    const text = (JSON.stringify(definition) as string | undefined) ?? '';
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
