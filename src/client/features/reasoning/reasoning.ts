import type { ToolCallDto } from '../../../contract/sessions';
import { isFailedCall } from '../../../contract/sessions';

// What Toolscope shows as an agent's reasoning for a tool call (docs/reasoning.md). Nothing here
// is guessed or generated: only text the agent itself sent with the call, found where agents
// and MCP clients put it, plus the W3C trace context that links the call to an outer trace.

/** Key names (case-insensitive, after any namespace prefix such as "com.example/") that hold reasoning. */
export const REASONING_KEYS = [
  'reasoning',
  'reason',
  'thought',
  'thoughts',
  'thinking',
  'rationale',
  'justification',
  'intent',
  'purpose',
  'goal',
  'explanation',
  'why',
  'plan',
] as const;

export interface ReasoningText {
  source: 'meta' | 'arguments';
  /** The key as sent, e.g. "com.acme/rationale". */
  key: string;
  text: string;
}

export interface TraceContext {
  traceId: string;
  parentSpanId: string;
  sampled: boolean;
}

export interface CallReasoning {
  texts: ReasoningText[];
  trace: TraceContext | null;
}

const MAX_TEXT = 2_000;
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function isReasoningKey(key: string): boolean {
  const bare = key.split(/[/.:]/).at(-1)?.toLowerCase() ?? '';
  return (REASONING_KEYS as readonly string[]).includes(bare);
}

function asText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('\n').trim() || null;
  return null;
}

/** Reasoning-named string values of an object, at the top level and one level down. */
function collect(source: ReasoningText['source'], value: unknown, out: ReasoningText[], depth = 0, prefix = ''): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const text = isReasoningKey(key) ? asText(inner) : null;
    if (text) out.push({ source, key: path, text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text });
    else if (depth === 0) collect(source, inner, out, 1, path);
  }
}

/** W3C traceparent ("00-<trace id>-<parent span id>-<flags>"), or null when absent or malformed. */
export function parseTraceparent(value: string | null | undefined): TraceContext | null {
  const match = value ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]) || /^0+$/.test(match[3])) return null;
  return { traceId: match[2], parentSpanId: match[3], sampled: (Number.parseInt(match[4], 16) & 1) === 1 };
}

export function extractReasoning(call: ToolCallDto): CallReasoning {
  const texts: ReasoningText[] = [];
  collect('meta', call.meta, texts);
  collect('arguments', call.arguments, texts);
  const metaTraceparent =
    typeof call.meta === 'object' && call.meta !== null
      ? (call.meta as Record<string, unknown>).traceparent
      : undefined;
  const trace = parseTraceparent(call.traceparent ?? (typeof metaTraceparent === 'string' ? metaTraceparent : null));
  return { texts, trace };
}

/**
 * What the agent did right after a call, in words (the waterfall's "then …"). Of an active
 * session's latest call nothing final can be said yet: more calls may come.
 */
export function describeNext(call: ToolCallDto, next: ToolCallDto | undefined, sessionActive = false): string {
  if (!next && sessionActive) return 'Latest call so far: the session is still active.';
  if (!next)
    return isFailedCall(call.status)
      ? 'No further calls: the agent stopped after this failure.'
      : 'Last call of the session.';
  const gap = Math.max(0, Date.parse(next.startedAt) - Date.parse(call.endedAt ?? call.startedAt));
  const after = gap >= 1000 ? ` ${(gap / 1000).toFixed(1)} s later` : '';
  if (!isFailedCall(call.status)) return `Then ${next.toolName}${after}.`;
  if (next.toolName === call.toolName)
    return `Retried ${next.toolName}${after}${sameArguments(call, next) ? ' with the same arguments' : ' with different arguments'}.`;
  return `Switched to ${next.toolName}${after}.`;
}

function sameArguments(a: ToolCallDto, b: ToolCallDto): boolean {
  return JSON.stringify(a.arguments) === JSON.stringify(b.arguments);
}
