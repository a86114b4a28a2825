import { RangeRetention } from './retention';
import { z } from 'zod';
import { isoTime } from './queryFields';
import { EffectivePrices } from './pricing';

// The five analytics calls of SPEC §7 (GET /api/v1/workspaces/{workspaceId}/analytics/…), read from
// the traffic rollups only (docs/analytics.md). Numbers are numbers, money is USD kept to 6
// decimals, times are milliseconds. A percentile is null where the range holds no finished call.

/** The presets, shortest first; 1 h and 6 h to look at what just happened (issue 38). */
export const ANALYTICS_RANGES = ['1h', '6h', '24h', '7d', '30d', '90d'] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const DEFAULT_ANALYTICS_RANGE: AnalyticsRange = '7d';
export const RANGE_MS: Record<AnalyticsRange, number> = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
  '30d': 30 * 24 * 3_600_000,
  '90d': 90 * 24 * 3_600_000,
};
/** The longest custom range (`from`/`to`) one call may ask for. */
export const MAX_CUSTOM_RANGE_DAYS = 400;
/** What a series point spans. */
export const SERIES_STEPS = ['1m', '1h', '1d'] as const;
export type SeriesStep = (typeof SERIES_STEPS)[number];
/** Client names as the rollups hold an agent that sent no clientInfo. */
export const UNKNOWN_CLIENT = '';

const filterText = (what: string) =>
  z.string().min(1, `${what} must not be empty`).max(200, `${what} must be at most 200 characters`);

const rangeFields = {
  range: z.enum(ANALYTICS_RANGES, { error: `Expected one of ${ANALYTICS_RANGES.join(', ')}` }).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  serverId: z.uuid({ error: 'Expected a server id (UUID)' }).optional(),
  tool: filterText('tool').optional(),
  client: filterText('client').optional(),
  /** A platform key's id, or 'none': the calls made without a key. */
  keyId: z.union([z.uuid(), z.literal('none')], { error: "Expected a platform key id (UUID) or 'none'" }).optional(),
};

type RangeFields = { range?: string; from?: string; to?: string };
function checkRange<T extends z.ZodType<RangeFields>>(schema: T) {
  return schema
    .refine((q) => !(q.range && (q.from || q.to)), {
      error: 'Give either range or from/to, not both',
      path: ['range'],
    })
    .refine((q) => !q.from === !q.to, { error: 'from and to go together', path: ['to'] })
    .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), {
      error: 'Must be after from',
      path: ['to'],
    })
    .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= MAX_CUSTOM_RANGE_DAYS * 86_400_000, {
      error: `The range must be at most ${MAX_CUSTOM_RANGE_DAYS} days`,
      path: ['to'],
    });
}

export const AnalyticsQuery = checkRange(z.strictObject(rangeFields));
export type AnalyticsQuery = z.input<typeof AnalyticsQuery>;

export const PerformanceQuery = checkRange(
  z.strictObject({
    ...rangeFields,
    format: z.enum(['summary'], { error: 'Expected summary (or no format)' }).optional(),
  }),
);
export type PerformanceQuery = z.input<typeof PerformanceQuery>;

export const ResolvedRange = z.object({
  /** The preset asked for, or null for a custom from/to. */
  preset: z.enum(ANALYTICS_RANGES).nullable(),
  from: z.string(),
  to: z.string(),
  step: z.enum(SERIES_STEPS),
  /** What of the range is still kept (contract/retention.ts): screens say so rather than show zeros. */
  retention: RangeRetention.optional(),
});
export type ResolvedRange = z.infer<typeof ResolvedRange>;

const ms = z.number().nullable();

export const OverviewTotals = z.object({
  calls: z.number().int(),
  errors: z.number().int(),
  /** errors / calls, 0..1 (0 without calls). */
  errorRate: z.number(),
  sessions: z.number().int(),
  clients: z.number().int(),
  /** o200k_base tokens of the calls' arguments and results and of the tool definitions agents received (docs/analytics.md "Token"). */
  tokens: z.number().int(),
  /** The part of `tokens` that is tool definitions (no call's: a tools/list answer's). */
  definitionTokens: z.number().int(),
  cost: z.number(),
  /** Nearest-rank quantiles of the answered calls' durations from the merged DDSketches (docs/analytics.md "Quantile"). */
  p50Ms: ms,
  p95Ms: ms,
});
export type OverviewTotals = z.infer<typeof OverviewTotals>;

export const AnalyticsOverviewResult = z.object({
  range: ResolvedRange,
  totals: OverviewTotals,
  /** The same keys over the equal period just before `range.from`. */
  previous: OverviewTotals,
  /** Oldest first, every step of the range present (zeros where nothing happened). */
  series: z.array(
    z.object({ t: z.string(), calls: z.number().int(), errors: z.number().int(), p95Ms: ms, cost: z.number() }),
  ),
});
export type AnalyticsOverviewResult = z.infer<typeof AnalyticsOverviewResult>;

/**
 * A server's row of tool definitions in /costs' byTool (id `${serverId}${DEFINITIONS_ROW_SUFFIX}`):
 * what its tools/list answers cost belongs to no tool, but to the total, which every breakdown sums to.
 */
export const DEFINITIONS_ROW_NAME = 'Tool definitions';
export const DEFINITIONS_ROW_SUFFIX = '/(tool definitions)';

export const CostBreakdown = z.object({
  /** serverId, `${serverId}/${tool}`, client name, platform key id (or 'none'), session id. */
  id: z.string(),
  name: z.string(),
  serverId: z.string().nullable(),
  calls: z.number().int(),
  tokens: z.number().int(),
  cost: z.number(),
});
export type CostBreakdown = z.infer<typeof CostBreakdown>;

export const TokenSplit = z.object({
  definitions: z.number().int(),
  arguments: z.number().int(),
  results: z.number().int(),
});
export type TokenSplit = z.infer<typeof TokenSplit>;

export const AnalyticsCostsResult = z.object({
  range: ResolvedRange,
  currency: z.literal('USD'),
  total: z.number(),
  /** Days (UTC) of the range, oldest first; `byServer` maps a server id to its cost that day. */
  byDay: z.array(
    z.object({
      date: z.string(),
      cost: z.number(),
      tokens: z.number().int(),
      byServer: z.record(z.string(), z.number()),
    }),
  ),
  byServer: z.array(CostBreakdown),
  byTool: z.array(CostBreakdown),
  byClient: z.array(CostBreakdown),
  byKey: z.array(CostBreakdown),
  /** The costliest sessions that were active in the range (tokens priced; per-call tool prices are in the other views). */
  bySession: z.array(CostBreakdown),
  tokens: TokenSplit,
  /** Per server: what its tool definitions add to every turn of an agent, and the tools listed but not called in the range. */
  contextWeight: z.array(
    z.object({
      serverId: z.string(),
      serverName: z.string(),
      definitionTokens: z.number().int(),
      /** The definitions' cost per model turn at the workspace's input price. */
      costPerTurn: z.number(),
      listedAt: z.string(),
      unusedTools: z.array(z.object({ name: z.string(), definitionTokens: z.number().int(), costPerTurn: z.number() })),
    }),
  ),
  /** The calendar month (UTC) so far, whatever the range, and a straight-line projection to its end. */
  monthToDate: z.object({
    monthStart: z.string(),
    cost: z.number(),
    /**
     * cost + the observed rate × the time left in the month; the rate is the month's cost over the
     * time since `basisFrom` (the first traffic of the month, at least an hour back): a workspace
     * 40 minutes old is not projected as if it had run since the 1st. Null with no traffic this month.
     */
    projectedMonthEnd: z.number().nullable(),
    /** Start of the period the rate was observed over (null: no traffic this month). */
    basisFrom: z.string().nullable(),
    /** Hours the rate was observed over. */
    basisHours: z.number(),
  }),
  prices: EffectivePrices,
});
export type AnalyticsCostsResult = z.infer<typeof AnalyticsCostsResult>;

export const LatencySummary = z.object({
  calls: z.number().int(),
  errors: z.number().int(),
  errorRate: z.number(),
  /** Errors by class: JSON-RPC protocol errors (−32700/−32600/−32601/−32602), other server failures, tool results flagged isError. */
  errorsByClass: z.object({ protocol: z.number().int(), server: z.number().int(), tool: z.number().int() }),
  p50Ms: ms,
  p90Ms: ms,
  p95Ms: ms,
  p99Ms: ms,
  maxMs: ms,
});

export const PerformanceSummaryResult = z.object({
  range: ResolvedRange,
  servers: z.array(LatencySummary.extend({ serverId: z.string(), serverName: z.string() })),
  /** Slowest (p95) first. */
  tools: z.array(LatencySummary.extend({ serverId: z.string(), serverName: z.string(), tool: z.string() })),
});
export type PerformanceSummaryResult = z.infer<typeof PerformanceSummaryResult>;

export const PerformanceSeriesResult = z.object({
  range: ResolvedRange,
  servers: z.array(
    z.object({
      serverId: z.string(),
      serverName: z.string(),
      series: z.array(z.object({ t: z.string(), calls: z.number().int(), p50Ms: ms, p95Ms: ms, p99Ms: ms })),
    }),
  ),
});
export type PerformanceSeriesResult = z.infer<typeof PerformanceSeriesResult>;

export const UsageDailyResult = z.object({
  range: ResolvedRange,
  /** The days are this IANA time zone's (the user's preference, UTC by default). */
  timeZone: z.string(),
  days: z.array(
    z.object({
      date: z.string(),
      calls: z.number().int(),
      errors: z.number().int(),
      sessions: z.number().int(),
      tokens: z.number().int(),
      cost: z.number(),
    }),
  ),
  /** The workspace owner's monthly agent-call quota (SPEC §9 plans); limit null = unlimited. */
  quota: z.object({
    plan: z.string(),
    limit: z.number().int().nullable(),
    used: z.number().int(),
    resetsAt: z.string(),
  }),
});
export type UsageDailyResult = z.infer<typeof UsageDailyResult>;

export const AnalyticsToolsResult = z.object({
  range: ResolvedRange,
  /** Most called first. */
  tools: z.array(
    z.object({
      serverId: z.string(),
      serverName: z.string(),
      tool: z.string(),
      calls: z.number().int(),
      errorRate: z.number(),
      p50Ms: ms,
      p95Ms: ms,
      avgResultTokens: z.number(),
      lastCalledAt: z.string().nullable(),
    }),
  ),
});
export type AnalyticsToolsResult = z.infer<typeof AnalyticsToolsResult>;
