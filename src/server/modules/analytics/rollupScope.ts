import type { EffectivePrices } from '../../../contract/pricing';
import {
  LATENCY_TABLES,
  SUM_COLUMNS,
  TRAFFIC_COLUMNS,
  TRAFFIC_TABLES,
  type LatencyGrain,
  type TrafficGrain,
} from '../../recording/trafficSql';
import { coverRange, readableEnd, type CoverSegment } from './timeRange';

// SQL over the traffic rollups of one workspace: the rows covering a range (timeRange.ts), the
// optional filters, the cost of a row at the workspace's prices; at the full key (traffic_*), or
// per tool / per server (latency_*: sums and sketches). Every source adds the range's increments
// still pending (traffic_pending, minute rows at the full key, not yet folded into the grains:
// trafficFold.ts), so a read is exact whether or not the fold has run. Every value travels as a
// numbered parameter.

const TRAFFIC_NAMES = TRAFFIC_COLUMNS.map(([name]) => name).join(', ');
const SUM_NAMES = SUM_COLUMNS.map(([name]) => name).join(', ');

export interface RollupFilters {
  serverId?: string;
  tool?: string;
  client?: string;
  /** A platform key's id, or 'none' (calls without a key). */
  keyId?: string;
}

/** Filters only the full key holds (the traffic rows): a client, a platform key. */
export function needsFullKey(filters: RollupFilters): boolean {
  return Boolean(filters.client || filters.keyId);
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
    /**
     * A range ending after this reads its last bucket whole (readableEnd): the time of the read for
     * a preset, which ends after now; never (Infinity) for a range given by from/to, read exactly.
     */
    private readonly openAfterMs: number = Number.POSITIVE_INFINITY,
  ) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /**
   * The sums of [fromMs, toMs) as `(…) r`: per tool (`sumsSource`), or at the full key where a
   * client filter asks for it (`source`). `coarsest` 'weeks' only where the view does not split the
   * range in time (a week row's bucket is its Monday).
   */
  sums(fromMs: number, toMs: number, coarsest: LatencyGrain): string {
    return needsFullKey(this.filters)
      ? this.source(fromMs, toMs, coarsest === 'weeks' ? 'days' : coarsest)
      : this.sumsSource(fromMs, toMs, coarsest);
  }

  /**
   * `(…) r`: the rollup rows at the full key of [fromMs, toMs), read at no grain coarser than
   * `coarsest`; `columns`: the columns read (all by default).
   */
  source(fromMs: number, toMs: number, coarsest: TrafficGrain, columns = TRAFFIC_NAMES): string {
    const filters: string[] = [];
    if (this.filters.serverId) filters.push(`server_id = ${this.param(this.filters.serverId)}`);
    if (this.filters.tool) filters.push(`tool_name = ${this.param(this.filters.tool)}`);
    if (this.filters.client) filters.push(`client_name = ${this.param(this.filters.client)}`);
    if (this.filters.keyId === 'none') filters.push('platform_key_id is null');
    else if (this.filters.keyId) filters.push(`platform_key_id = ${this.param(this.filters.keyId)}`);
    return this.covered(
      fromMs,
      toMs,
      coverRange(fromMs, readableEnd(toMs, this.openAfterMs, coarsest), coarsest),
      (grain) => TRAFFIC_TABLES[grain as TrafficGrain],
      columns,
      columns,
      filters,
      filters,
    );
  }

  /**
   * `(…) r`: the sums per tool (tool '' included: sessions, definitions) of [fromMs, toMs), from
   * the per-tool rows (latency_*); `coarsest` 'weeks': whole weeks, then days, hours and minutes
   * at the ends. Columns as in the traffic rows (r.calls, r.argument_tokens…, r.tool_name), so
   * the cost and the filters read the same; the client filter cannot apply (use `source`).
   */
  sumsSource(fromMs: number, toMs: number, coarsest: LatencyGrain): string {
    const filters: string[] = [];
    if (this.filters.serverId) filters.push(`server_id = ${this.param(this.filters.serverId)}`);
    if (this.filters.tool) filters.push(`tool_name = ${this.param(this.filters.tool)}`);
    const columns = `workspace_id, bucket, server_id, tool_name, ${SUM_NAMES}`;
    return this.covered(
      fromMs,
      toMs,
      this.segments(fromMs, toMs, coarsest),
      (grain) => LATENCY_TABLES[grain],
      columns,
      columns,
      [...filters, 'tool_name is not null'],
      filters,
    );
  }

  /**
   * `(…) r`: the sketch-only rows (latency_*) of [fromMs, toMs): per tool ('tool': the tool filter
   * applies), per server ('server': tool_name null), or the workspace's ('workspace': server_id and
   * tool_name null, all servers: migration 023; not with a server filter). The client filter cannot
   * apply to them. `coarsest` 'weeks': whole weeks, then days, hours and minutes at the ends.
   */
  sketchSource(fromMs: number, toMs: number, coarsest: LatencyGrain, level: 'tool' | 'server' | 'workspace'): string {
    if (level === 'workspace' && this.filters.serverId) throw new Error('a server filter reads the server rows');
    const filters: string[] = [];
    if (this.filters.serverId) filters.push(`server_id = ${this.param(this.filters.serverId)}`);
    const pendingFilters = [...filters, `tool_name <> ''`];
    if (level === 'workspace') filters.push('server_id is null and tool_name is null');
    else if (level === 'server') filters.push('server_id is not null and tool_name is null');
    else if (this.filters.tool) {
      const tool = this.param(this.filters.tool);
      filters.push(`tool_name = ${tool}`);
      pendingFilters.push(`tool_name = ${tool}`);
    } else filters.push('tool_name is not null');
    // Pending rows are at the full key: as a tool's row, its server's (tool_name null) or the workspace's.
    const key =
      level === 'tool'
        ? 'server_id, tool_name'
        : level === 'server'
          ? 'server_id, null::text as tool_name'
          : 'null::uuid as server_id, null::text as tool_name';
    const pending = `workspace_id, bucket, ${key}, calls, latency_zeros as zeros, latency_bins as bins, latency_counts as counts`;
    return this.covered(
      fromMs,
      toMs,
      this.segments(fromMs, toMs, coarsest),
      (grain) => LATENCY_TABLES[grain],
      'workspace_id, bucket, server_id, tool_name, calls, zeros, bins, counts',
      pending,
      filters,
      pendingFilters,
    );
  }

  private segments(fromMs: number, toMs: number, coarsest: LatencyGrain): CoverSegment[] {
    const end = readableEnd(toMs, this.openAfterMs, coarsest);
    return coarsest === 'weeks' ? coverRange(fromMs, end, 'days', true) : coverRange(fromMs, end, coarsest);
  }

  /**
   * The rows of each segment from its grain's table, and the pending rows of the whole range (they
   * are minute rows, so those of [fromMs, toMs) are exactly those of its segments).
   */
  private covered(
    fromMs: number,
    toMs: number,
    segments: CoverSegment[],
    table: (grain: LatencyGrain) => string,
    columns: string,
    pendingColumns: string,
    filters: string[],
    pendingFilters: string[],
  ): string {
    const ws = this.param(this.workspaceId);
    const within = (from: number, to: number) =>
      `bucket >= ${this.param(new Date(from).toISOString())}::timestamptz and bucket < ${this.param(new Date(to).toISOString())}::timestamptz`;
    const parts = segments.map(
      (segment) =>
        `select ${columns} from ${table(segment.grain)} where workspace_id = ${ws} and ${within(segment.fromMs, segment.toMs)}${filters.map((f) => ` and ${f}`).join('')}`,
    );
    parts.push(
      `select ${pendingColumns} from traffic_pending where workspace_id = ${ws} and ${within(fromMs, toMs)}${pendingFilters.map((f) => ` and ${f}`).join('')}`,
    );
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
    return this.prices.toolPrices.length === 0
      ? tokens
      : `(${tokens} + r.calls * coalesce(tp.price_per_call, 0)::float8)`;
  }
}

/** A group value as a map key: times as ISO, the rest as text ('' for null). */
export function groupKey(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

export const roundRate = (errors: number, calls: number): number =>
  calls === 0 ? 0 : Math.round((errors / calls) * 10_000) / 10_000;
