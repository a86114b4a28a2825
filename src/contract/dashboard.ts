import { z } from 'zod';
import { isoTime } from './queryFields';
import { ToolCallDto } from './sessions';

// The dashboard's numbers of today (GET …/dashboard/overview); the analytics screens' own
// overview is contract/analytics.ts.

export const DashboardOverviewQuery = z.object({
  /** Start of "today" as the viewer sees it (the client sends its local midnight); default UTC midnight. */
  since: isoTime.optional(),
});
export type DashboardOverviewQuery = z.input<typeof DashboardOverviewQuery>;

export const DashboardOverview = z.object({
  since: z.string(),
  servers: z.object({ total: z.number().int(), online: z.number().int(), offline: z.number().int() }),
  sessions: z.object({ today: z.number().int(), active: z.number().int() }),
  /** The analytics totals of [since, now): the same figures /analytics/overview gives for that range. */
  toolCalls: z.object({
    today: z.number().int(),
    errors: z.number().int(),
    /** o200k_base tokens, tool definitions included (`definitionTokens` of them). */
    tokens: z.number().int(),
    definitionTokens: z.number().int(),
    /** USD at the workspace's prices. */
    cost: z.number(),
  }),
  /** errors / calls since `since`, 0..1; null with no calls (shown as "—"). */
  errorRate: z.number().nullable(),
  /** Nearest-rank p95 of today's answered calls in ms, from the merged DDSketches; null with none. */
  latencyP95Ms: z.number().nullable(),
  /** How the workspace's model relates to the token counts: its tokens ≈ tokens × factor (exact: factor 1). */
  tokenCorrection: z.object({ model: z.string(), factor: z.number(), exact: z.boolean() }),
  /** The newest tool calls of the workspace (at most 10), newest first. */
  latestActivity: z.array(ToolCallDto),
  lastActivityAt: z.string().nullable(),
});
export type DashboardOverview = z.infer<typeof DashboardOverview>;
