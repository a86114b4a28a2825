// The counters every traffic rollup row carries (trafficGrains.ts at the full key, latencyRollup.ts
// per server and per tool), and how two of them add up. The latency rows keep no duration sum:
// their sketch holds the durations.

export interface CallCounts {
  calls: number;
  protocol_errors: number;
  server_errors: number;
  tool_errors: number;
  sessions: number;
  argument_tokens: number;
  result_tokens: number;
  definition_tokens: number;
  duration_max_ms: number;
  last_call_at: string | null;
}

export function addCallCounts(into: CallCounts, from: CallCounts): void {
  into.calls += from.calls;
  into.protocol_errors += from.protocol_errors;
  into.server_errors += from.server_errors;
  into.tool_errors += from.tool_errors;
  into.sessions += from.sessions;
  into.argument_tokens += from.argument_tokens;
  into.result_tokens += from.result_tokens;
  into.definition_tokens += from.definition_tokens;
  into.duration_max_ms = Math.max(into.duration_max_ms, from.duration_max_ms);
  if (from.last_call_at !== null && (into.last_call_at === null || from.last_call_at > into.last_call_at))
    into.last_call_at = from.last_call_at;
}
