import type { Queryable } from '../../db/database';
import type { EffectivePrices } from '../../../contract/pricing';
import { LatencySketch, type SketchBins } from '../../recording/latencySketch';
import type { TrafficGrain } from '../../recording/trafficSql';
import { coverRange } from './timeRange';

// SQL over the traffic rollups of one workspace: the rows covering a range (timeRange.ts), the
// optional filters, the cost of a row at the workspace's prices, and latency sketches merged per
// group. Every value travels as a numbered parameter.

export interface RollupFilters {
  serverId?: string;
  tool?: string;
  client?: string;
}

/** Tokens of a rollup row, all three kinds. */
export const TOKENS_SQL = '(r.argument_tokens + r.result_tokens + r.definition_tokens)';
export const ERRORS_SQL = '(r.protocol_errors + r.server_errors + r.tool_errors)';

export class RollupScope {
  readonly params: unknown[] = [];

  constructor(
    readonly workspaceId: string,
    readonly filters: RollupFilters,
    private readonly prices: EffectivePrices,
  ) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** `(…) r`: the rollup rows of [fromMs, toMs), read at no grain coarser than `coarsest`. */
  source(fromMs: number, toMs: number, coarsest: TrafficGrain): string {
    const ws = this.param(this.workspaceId);
    const filters: string[] = [];
    if (this.filters.serverId) filters.push(`server_id = ${this.param(this.filters.serverId)}`);
    if (this.filters.tool) filters.push(`tool_name = ${this.param(this.filters.tool)}`);
    if (this.filters.client) filters.push(`client_name = ${this.param(this.filters.client)}`);
    const parts = coverRange(fromMs, toMs, coarsest).map(
      (segment) =>
        `select * from ${segment.table} where workspace_id = ${ws} and bucket >= ${this.param(new Date(segment.fromMs).toISOString())}::timestamptz` +
        ` and bucket < ${this.param(new Date(segment.toMs).toISOString())}::timestamptz${filters.map((f) => ` and ${f}`).join('')}`,
    );
    // An empty range still needs a row source of the right shape.
    if (parts.length === 0) parts.push(`select * from traffic_minutes where false`);
    return `(${parts.join('\n union all ')}) r`;
  }

  /** Joins each row to its tool's per-call price when the workspace has any. */
  get priceJoin(): string {
    return this.prices.toolPrices.length === 0
      ? ''
      : 'left join tool_prices tp on tp.workspace_id = r.workspace_id and tp.server_id = r.server_id and tp.tool_name = r.tool_name';
  }

  /**
   * A row's cost in USD: definitions and results are model input, arguments model output, all in
   * o200k_base tokens times the model's correction factor; plus the tool's price per call.
   */
  get costSql(): string {
    const input = this.param(this.prices.inputPerMillion);
    const output = this.param(this.prices.outputPerMillion);
    const factor = this.param(this.prices.correctionFactor);
    const tokens = `((r.definition_tokens + r.result_tokens) * ${input}::float8 + r.argument_tokens * ${output}::float8) * ${factor}::float8 / 1000000.0`;
    return this.prices.toolPrices.length === 0 ? tokens : `(${tokens} + r.calls * coalesce(tp.price_per_call, 0)::float8)`;
  }
}

/**
 * Latency sketches merged per group: each rollup row's bins added into its group's sketch. The
 * merge runs here rather than in SQL: unnesting every row's jsonb into (bin, count) rows and
 * grouping them cost the database several times what reading the rows costs (docs/benchmarks.md).
 * `group` is an SQL expression over r (or 'null' for one group); `source` a RollupScope.source of the same scope.
 */
export async function mergedSketches(db: Queryable, scope: RollupScope, source: string, group: string): Promise<Map<string, LatencySketch>> {
  const rows = await db.query<{ grp: unknown; latency: SketchBins | string }>(`select ${group} as grp, r.latency from ${source} where r.latency <> '{}'::jsonb`, scope.params);
  const sketches = new Map<string, LatencySketch>();
  for (const row of rows) {
    const key = groupKey(row.grp);
    let sketch = sketches.get(key);
    if (!sketch) sketches.set(key, (sketch = new LatencySketch()));
    sketch.addBins(typeof row.latency === 'string' ? (JSON.parse(row.latency) as SketchBins) : row.latency);
  }
  return sketches;
}

/** A group value as a map key: times as ISO, the rest as text ('' for null). */
export function groupKey(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

export const roundRate = (errors: number, calls: number): number => (calls === 0 ? 0 : Math.round((errors / calls) * 10_000) / 10_000);
