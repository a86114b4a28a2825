import type { EffectivePrices } from '../../../contract/pricing';
import { LATENCY_TABLES, TRAFFIC_TABLES, type LatencyGrain, type TrafficGrain } from '../../recording/trafficSql';
import { coverRange, type CoverSegment } from './timeRange';

// SQL over the traffic rollups of one workspace: the rows covering a range (timeRange.ts), the
// optional filters, the cost of a row at the workspace's prices, and the sketch-only rows
// (sketchReads.ts). Every value travels as a numbered parameter.

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
    const filters: string[] = [];
    if (this.filters.serverId) filters.push(`server_id = ${this.param(this.filters.serverId)}`);
    if (this.filters.tool) filters.push(`tool_name = ${this.param(this.filters.tool)}`);
    if (this.filters.client) filters.push(`client_name = ${this.param(this.filters.client)}`);
    return this.covered(coverRange(fromMs, toMs, coarsest), (grain) => TRAFFIC_TABLES[grain as TrafficGrain], filters);
  }

  /**
   * `(…) r`: the sketch-only rows (latency_*) of [fromMs, toMs): per tool when `perTool` (the tool
   * filter applies), else per server (tool_name null). The client filter cannot apply to them.
   * `coarsest` 'weeks': whole weeks, then days, hours and minutes at the ends.
   */
  sketchSource(fromMs: number, toMs: number, coarsest: LatencyGrain, perTool: boolean): string {
    const filters: string[] = [];
    if (this.filters.serverId) filters.push(`server_id = ${this.param(this.filters.serverId)}`);
    if (!perTool) filters.push('tool_name is null');
    else if (this.filters.tool) filters.push(`tool_name = ${this.param(this.filters.tool)}`);
    else filters.push('tool_name is not null');
    const segments = coarsest === 'weeks' ? coverRange(fromMs, toMs, 'days', true) : coverRange(fromMs, toMs, coarsest);
    return this.covered(segments, (grain) => LATENCY_TABLES[grain], filters);
  }

  private covered(segments: CoverSegment[], table: (grain: LatencyGrain) => string, filters: string[]): string {
    const ws = this.param(this.workspaceId);
    const parts = segments.map(
      (segment) =>
        `select * from ${table(segment.grain)} where workspace_id = ${ws} and bucket >= ${this.param(new Date(segment.fromMs).toISOString())}::timestamptz` +
        ` and bucket < ${this.param(new Date(segment.toMs).toISOString())}::timestamptz${filters.map((f) => ` and ${f}`).join('')}`,
    );
    // An empty range still needs a row source of the right shape.
    if (parts.length === 0) parts.push(`select * from ${table('minutes')} where false`);
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

/** A group value as a map key: times as ISO, the rest as text ('' for null). */
export function groupKey(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

export const roundRate = (errors: number, calls: number): number => (calls === 0 ? 0 : Math.round((errors / calls) * 10_000) / 10_000);
