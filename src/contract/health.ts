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

/** GET /api/health: the load balancer's probe (503 when unhealthy). */
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

export const SystemHealthResult = z.object({
  status: z.enum(HEALTH_STATUSES),
  version: z.string(),
  uptimeSeconds: z.number(),
  startedAt: z.string(),
  /** Only for a signed-in caller (a valid access token): the runtime's version helps an attacker more than a load balancer. */
  nodeVersion: z.string().optional(),
  database: z.object({ engine: z.enum(['pglite', 'postgres']), reachable: z.boolean(), pendingMigrations: z.array(z.string()) }),
  /** Only for a signed-in caller, as nodeVersion. */
  memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }).optional(),
  services: z.array(ServiceHealth),
});
export type SystemHealthResult = z.infer<typeof SystemHealthResult>;

export const ServiceNameParams = z.object({ name: z.string().min(1).max(64) });
