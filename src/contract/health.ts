import { z } from 'zod';

// Health answers (unauthenticated, SPEC §6/§7). A service is one thing the server depends on;
// `status` is 'healthy' when its check passed just now.
export const HEALTH_STATUSES = ['healthy', 'unhealthy'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export const ServiceHealth = z.object({
  name: z.string(),
  status: z.enum(HEALTH_STATUSES),
  message: z.string(),
  checkedAt: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ServiceHealth = z.infer<typeof ServiceHealth>;

/** GET /api/health: the load balancer's probe — `status` healthy (200) while this instance can serve, even with the database away; `checks` has each part. */
export const HealthResult = z.object({
  status: z.enum(HEALTH_STATUSES),
  version: z.string(),
  uptimeSeconds: z.number(),
  checks: z.record(z.string(), z.enum(HEALTH_STATUSES)),
});
export type HealthResult = z.infer<typeof HealthResult>;

export const ServicesHealthResult = z.object({
  status: z.enum(HEALTH_STATUSES),
  services: z.array(ServiceHealth),
});
export type ServicesHealthResult = z.infer<typeof ServicesHealthResult>;

/** GET /api/v1/system/health's `recorder`: how far recording is behind the traffic, and since when. */
export const RecorderBacklog = z.object({
  /** Rows wait for the database (writes failing, or the oldest waiting 5 s or more). */
  behind: z.boolean(),
  /** Messages and calls not yet in the database (they are in the journal). */
  waitingRows: z.number(),
  /** When the oldest of them was recorded (ISO), or null when none waits. */
  oldestWaitingSince: z.string().nullable(),
  /** Since when the database has refused every write as unavailable (ISO), or null. */
  writeFailingSince: z.string().nullable(),
  /** The journal's size on disk (null without a journal). */
  journalBytes: z.number().nullable(),
  /** Since start: rows dropped (queue full, journal budget spent), records the journal could not write, rows the database refused. */
  dropped: z.number(),
  notJournaled: z.number(),
  setAside: z.number(),
});
export type RecorderBacklog = z.infer<typeof RecorderBacklog>;

export const SystemHealthResult = z.object({
  status: z.enum(HEALTH_STATUSES),
  version: z.string(),
  uptimeSeconds: z.number(),
  startedAt: z.string(),
  /** Only for a signed-in caller (a valid access token): the runtime's version helps an attacker more than a load balancer. */
  nodeVersion: z.string().optional(),
  database: z.object({
    engine: z.enum(['pglite', 'postgres']),
    reachable: z.boolean(),
    pendingMigrations: z.array(z.string()),
  }),
  /** Only for a signed-in caller, as nodeVersion. */
  memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }).optional(),
  /** What GET /api/health answers: this instance can serve (200), even with recording behind. */
  serving: z.boolean(),
  /** Null when the recorder is not running. */
  recorder: RecorderBacklog.nullable(),
  services: z.array(ServiceHealth),
});
export type SystemHealthResult = z.infer<typeof SystemHealthResult>;

export const ServiceNameParams = z.object({ name: z.string().min(1).max(64) });
