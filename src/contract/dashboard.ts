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
  toolCalls: z.object({ today: z.number().int(), errors: z.number().int(), tokens: z.number().int() }),
  /** errors / calls since `since`, 0..1; 0 with no calls. */
  errorRate: z.number(),
  /** p95 of today's call durations in ms; null with no finished calls. */
  latencyP95Ms: z.number().nullable(),
  /** The newest tool calls of the workspace (at most 10), newest first. */
  latestActivity: z.array(ToolCallDto),
  lastActivityAt: z.string().nullable(),
});
export type DashboardOverview = z.infer<typeof DashboardOverview>;
