import { createHmac, hkdfSync } from 'node:crypto';
import type { JsonRpcMessage } from '../../proxy/jsonRpc';
import type { CompiledPath, CompiledRules } from './compiledRules';
import { textSpans, type Span } from './textSpans';

// Replaces what a workspace's rules find in a JSON-RPC message with typed placeholders
// (`[REDACTED:github-pat]`, or `[REDACTED:github-pat:3f9c01ab44d2]` with a keyed hash), walking
// params, result and error: every string, nested objects and arrays, and strings that are
// themselves JSON. The message given is never changed: a redacted copy shares what did not change.

/** A string shorter than this holds no value any pattern rule finds (the shortest: an IPv4 address, 7). */
const MIN_PATTERN_TEXT = 7;
/** Nesting deeper than this is not walked: the whole subtree is replaced (fail closed, never stored as is). */
const MAX_WALK_DEPTH = 256;

/** The per-workspace key of the placeholders' hashes, derived from the instance secret. */
export function workspaceHashKey(secret: string, workspaceId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'toolscope', `redaction-hash/v1/${workspaceId}`, 32));
}

/** How many values each rule replaced (for "test a sample"). */
export type RedactionCounts = Map<string, number>;

export class Redactor {
  private counts: RedactionCounts | undefined;
  private tool: string | undefined;

  constructor(
    readonly rules: CompiledRules,
    /** The workspace's key of the placeholders' hashes (workspaceHashKey). */
    readonly hashKey: Buffer,
  ) {}

  /**
   * The message as it may be stored: the same object when nothing was found. `tool`: the tool of
   * the call it belongs to (paths scoped to a tool). A message that cannot be walked (nested past
   * MAX_WALK_DEPTH) keeps nothing of its params, result or error.
   */
  redactMessage(message: JsonRpcMessage, tool?: string, counts?: RedactionCounts): JsonRpcMessage {
    this.counts = counts;
    this.tool = tool;
    const usePaths = this.rules.paths.length > 0;
    let out: JsonRpcMessage | undefined;
    for (const field of ['params', 'result', 'error'] as const) {
      const value = message[field];
      if (value === undefined) continue;
      // A request's params are the root of paths (`arguments.password`); a response's are `result…`/`error…`.
      const path = usePaths ? (field === 'params' ? [] : [field]) : null;
      const redacted = this.walk(value, path, 0);
      if (redacted !== value) (out ??= { ...message })[field] = redacted as never;
    }
    this.counts = undefined;
    return out ?? message;
  }

  /** A text (an error message for a span): what the pattern rules find in it, replaced. */
  redactText(text: string): string {
    return this.redactString(text, null, 0);
  }

  private placeholder(rule: string, value: string, hash: boolean): string {
    if (this.counts) this.counts.set(rule, (this.counts.get(rule) ?? 0) + 1);
    if (!hash) return `[REDACTED:${rule}]`;
    return `[REDACTED:${rule}:${createHmac('sha256', this.hashKey).update(value).digest('hex').slice(0, 12)}]`;
  }

  private pathMatches(path: string[]): boolean {
    return this.rules.paths.some((candidate) => samePath(candidate, path, this.tool));
  }

  private walk(value: unknown, path: string[] | null, depth: number): unknown {
    if (path && path.length > 0 && this.pathMatches(path)) return this.placeholder('path', '', false);
    if (typeof value === 'string') return this.redactString(value, path, depth);
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_WALK_DEPTH) return this.placeholder('too-deep', '', false);
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const redacted = this.walk(item, path && [...path, String(i)], depth + 1);
        if (redacted !== item) (copy ??= value.slice())[i] = redacted;
      }
      return copy ?? value;
    }
    let copy: Record<string, unknown> | undefined;
    const object = value as Record<string, unknown>;
    // Keys, not entries: no [key, value] array per property of every recorded message.
    for (const key of Object.keys(object)) {
      const item = object[key];
      const childPath = path && [...path, key];
      const redacted =
        (typeof item === 'string' ? this.byKey(key, item) : undefined) ?? this.walk(item, childPath, depth + 1);
      if (redacted !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = redacted;
    }
    return copy ?? value;
  }

  /** A key rule's placeholder for a value under a secret-looking key, or undefined. */
  private byKey(key: string, value: string): string | undefined {
    // MCP's own fields whose names look secret: a progress token or a cursor is no credential, and
    // the recorder reads them (a progress stream is one token; issue 35's flood test lost 959
    // notifications when distinct tokens were stored as one placeholder and coalesced).
    if (PROTOCOL_KEYS.has(key)) return undefined;
    for (const { rule, hash } of this.rules.keys) {
      if (value.length < rule.minLength || !rule.key(key) || this.rules.allowlist.has(value)) continue;
      if (value.startsWith('[REDACTED:')) continue;
      if (rule.minEntropy > 0 && entropyPerChar(value) < rule.minEntropy) continue;
      return this.placeholder(rule.id, value, hash);
    }
    return undefined;
  }

  private redactString(value: string, path: string[] | null, depth: number): string {
    if (value.length < MIN_PATTERN_TEXT && this.rules.custom.length === 0) return value;
    const embedded = parseEmbeddedJson(value);
    if (embedded !== undefined) {
      const redacted = this.walk(embedded, path, depth + 1);
      return redacted === embedded ? value : JSON.stringify(redacted);
    }
    const spans = textSpans(this.rules, value);
    return spans.length === 0 ? value : this.replaceSpans(value, spans);
  }

  private replaceSpans(text: string, spans: readonly Span[]): string {
    let out = '';
    let at = 0;
    for (const span of spans) {
      out += text.slice(at, span.start) + this.placeholder(span.rule, text.slice(span.start, span.end), span.hash);
      at = span.end;
    }
    return out + text.slice(at);
  }
}

function samePath(candidate: CompiledPath, path: string[], tool: string | undefined): boolean {
  if (candidate.segments.length !== path.length) return false;
  if (candidate.tool !== undefined && candidate.tool !== tool) return false;
  return candidate.segments.every((segment, i) => segment === '*' || segment === path[i]);
}

/** A string that is a JSON object or array (a tool's JSON text result), parsed; else undefined. */
function parseEmbeddedJson(value: string): unknown {
  // The first and last characters that are not whitespace, found without copying the string.
  let first = 0;
  while (first < value.length && isSpace(value.charCodeAt(first))) first++;
  let last = value.length - 1;
  while (last > first && isSpace(value.charCodeAt(last))) last--;
  const open = value.charCodeAt(first);
  const close = value.charCodeAt(last);
  if (!((open === 123 && close === 125) || (open === 91 && close === 93))) return undefined; // {…} or […]
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

/** Keys the MCP specification defines whose values are protocol state, never a secret. */
const PROTOCOL_KEYS = new Set(['progressToken', 'cursor', 'nextCursor']);

/** Shannon entropy in bits per character. */
export function entropyPerChar(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}
