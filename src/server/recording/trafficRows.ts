// The rows the traffic rollup makes of a batch: minute increments and tool lists. Their own file so
// the grain, latency and SQL modules can name them without importing the rollup that uses them.

import type { CallCounts } from './callCounts';

/** One minute of one key's traffic: its counters (callCounts.ts), its duration sum and sketch. */
export interface TrafficIncrement extends CallCounts {
  workspace_id: string;
  bucket: string;
  server_id: string;
  tool_name: string;
  client_name: string;
  platform_key_id: string | null;
  duration_sum_ms: number;
  /** The latency sketch (latencySketch.ts): zeros, bin indexes ascending, their counts. */
  latency_zeros: number;
  latency_bins: number[];
  latency_counts: number[];
}

/** The latest tools/list a server answered: what its definitions add to every turn. */
export interface ToolListRow {
  server_id: string;
  workspace_id: string;
  list_hash: string;
  definition_tokens: number;
  tools: { name: string; definitionTokens: number }[];
  listed_at: string;
}

/** One write's analytics rows: its minute increments (stored pending, in the write's statement) and the tool lists. */
export interface TrafficBatch {
  minutes: TrafficIncrement[];
  toolLists: ToolListRow[];
}
