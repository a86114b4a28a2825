import { z } from 'zod';

// How long Toolscope keeps what it records (docs/operations.md "Retention", issue 33). Raw data —
// sessions, messages, tool calls and their payloads — is kept a number of days set by the
// owner's plan; a workspace may keep it shorter, and the operator's cap
// (TOOLSCOPE_RAW_RETENTION_MAX_DAYS) bounds every workspace. The rollups analytics read outlive
// raw data: minutes for weeks, hours and days for more than a year.

/** Days of raw data each plan keeps (the plan cards' "Raw data kept" line; keyed by plans.ts's PlanId, which imports this). */
export const RAW_RETENTION_DAYS: Readonly<Record<'starter' | 'pro' | 'enterprise', number>> = {
  starter: 7,
  pro: 30,
  enterprise: 90,
};

/** Days each rollup grain is kept, on every plan (the operator's cap applies to raw data only). */
export const ROLLUP_RETENTION_DAYS = { minutes: 35, hours: 400, days: 1_095 } as const;

export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3_650;

/** What a workspace keeps, and since when (GET/PUT …/workspaces/{id}/retention). */
export const WorkspaceRetention = z.object({
  /** Days raw data is kept now: the smallest of the plan's, the workspace's choice and the operator's cap. */
  rawDays: z.number().int(),
  /** The owner's plan's days. */
  planDays: z.number().int(),
  /** What the workspace chose (null: the plan's). */
  chosenDays: z.number().int().nullable(),
  /** The operator's cap (null: none). */
  operatorCapDays: z.number().int().nullable(),
  minuteRollupDays: z.number().int(),
  hourRollupDays: z.number().int(),
  dayRollupDays: z.number().int(),
  /** The oldest instant raw data is kept from (now − rawDays). */
  rawKeptSince: z.string(),
});
export type WorkspaceRetention = z.infer<typeof WorkspaceRetention>;

export const UpdateRetentionBody = z.strictObject({
  /** Days of raw data to keep (at most the plan's and the operator's), or null for the plan's. */
  rawDays: z
    .number({ error: 'Expected a whole number of days' })
    .int({ error: 'Expected a whole number of days' })
    .min(MIN_RETENTION_DAYS, { error: `Keep at least ${MIN_RETENTION_DAYS} day` })
    .max(MAX_RETENTION_DAYS, { error: `Keep at most ${MAX_RETENTION_DAYS} days` })
    .nullable(),
});
export type UpdateRetentionBody = z.infer<typeof UpdateRetentionBody>;

/**
 * Said beside any answer that reads recorded data for a range: what of it is kept, and whether
 * the range reaches past it — so a screen says "not kept" instead of showing zeros.
 */
export const RangeRetention = z.object({
  rawKeptSince: z.string(),
  /** The oldest instant the rollups behind this answer still cover. */
  rollupsKeptSince: z.string(),
  /** The range starts before raw data is kept (sessions, messages and calls of it are gone). */
  reachesPastRaw: z.boolean(),
  /** The range starts before the rollups it reads are kept (its totals miss that part). */
  reachesPastRollups: z.boolean(),
});
export type RangeRetention = z.infer<typeof RangeRetention>;

export const RetentionText = {
  onlyManagersChange: 'Only owners and admins can change how long data is kept',
  overPlan: (planName: string, days: number) => `The ${planName} plan keeps raw data at most ${days} days`,
  overCap: (days: number) => `This Toolscope keeps raw data at most ${days} days`,
} as const;

/** "7 days" / "1 day". */
export function daysText(days: number): string {
  return `${days.toLocaleString('en-US')} ${days === 1 ? 'day' : 'days'}`;
}
