import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defaultReadOnlyPaths } from './deployments/sandbox';
import { int } from './envValues';

// The settings of deployments (docs/deployments.md): whether programs run on this host and which,
// the sandbox around them, the stdio bridge, the lease name of this instance and the two variables
// of Toolscope's own environment a program gets. Read from the environment with the rest
// (config.ts).

export const deploymentsEnv = {
  TOOLSCOPE_DEPLOYMENTS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const mode = deploymentModeOf(v);
      if (mode === undefined)
        ctx.addIssue({ code: 'custom', message: 'must be off (the default), catalog or any (on means any)' });
      return mode ?? 'off';
    }),
  TOOLSCOPE_SANDBOX_READONLY_PATHS: z.string().optional(),
  TOOLSCOPE_SANDBOX_UID_BASE: int(200_000, 1000),
  TOOLSCOPE_SANDBOX_BWRAP: z.string().optional(),
  TOOLSCOPE_DEPLOYMENT_COMMANDS: z.string().optional().default('node,npx,uvx,python3'),
  TOOLSCOPE_DEPLOYMENT_BRIDGE_HOST: z.string().optional().default('127.0.0.1'),
  TOOLSCOPE_DEPLOYMENT_BRIDGE_PORT: int(0, 0).pipe(z.number().max(65535)),
  TOOLSCOPE_DEPLOYMENT_BRIDGE_URL: z.url().optional(),
  TOOLSCOPE_DEPLOYMENT_STOP_GRACE_MS: int(5_000, 0),
  TOOLSCOPE_INSTANCE_ID: z.string().min(1).max(200).optional(),
  PATH: z.string().optional(),
  HOME: z.string().optional(),
};

export interface DeploymentsConfig {
  /** Deployments run programs on this host: off unless the operator sets TOOLSCOPE_DEPLOYMENTS=catalog|any. */
  deploymentsEnabled: boolean;
  /** What may be deployed when enabled: marketplace entries only (catalog) or any allowed command (any). */
  deploymentMode: 'catalog' | 'any';
  /** Host folders every sandbox sees read-only (default: Toolscope's node_modules; TOOLSCOPE_SANDBOX_READONLY_PATHS adds more). */
  sandboxReadOnlyPaths: string[];
  /** First host uid of the per-deployment uids when Toolscope runs as root (TOOLSCOPE_SANDBOX_UID_BASE). */
  sandboxUidBase: number;
  /** The bubblewrap binary (TOOLSCOPE_SANDBOX_BWRAP; default: bwrap on PATH). */
  sandboxBwrap: string | undefined;
  /** Commands a deployment config may name (TOOLSCOPE_DEPLOYMENT_COMMANDS, comma-separated). */
  deploymentCommands: string[];
  /** Where the stdio ↔ Streamable HTTP bridge listens (loopback by default; port 0 = any free port). */
  deploymentBridgeHost: string;
  deploymentBridgePort: number;
  /** How other instances reach this one's bridge (multi-instance); default http://{host}:{port}. */
  deploymentBridgeUrl: string | undefined;
  /** Between SIGTERM to a program's process group and SIGKILL. */
  deploymentStopGraceMs: number;
  /** Names this instance in deployment leases (default: the host name). */
  instanceId: string;
  /** The only two variables of Toolscope's own environment a deployed program gets. */
  deploymentPath: string;
  deploymentHome: string;
}

/** The deployment settings from the validated environment. */
export function deploymentsConfigOf(e: z.infer<z.ZodObject<typeof deploymentsEnv>>): DeploymentsConfig {
  return {
    deploymentsEnabled: e.TOOLSCOPE_DEPLOYMENTS !== 'off',
    deploymentMode: e.TOOLSCOPE_DEPLOYMENTS === 'catalog' ? 'catalog' : 'any',
    sandboxReadOnlyPaths: [
      ...defaultReadOnlyPaths(process.cwd()),
      ...(e.TOOLSCOPE_SANDBOX_READONLY_PATHS ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => path.resolve(p)),
    ],
    sandboxUidBase: e.TOOLSCOPE_SANDBOX_UID_BASE,
    sandboxBwrap: e.TOOLSCOPE_SANDBOX_BWRAP || undefined,
    deploymentCommands: e.TOOLSCOPE_DEPLOYMENT_COMMANDS.split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    deploymentBridgeHost: e.TOOLSCOPE_DEPLOYMENT_BRIDGE_HOST,
    deploymentBridgePort: e.TOOLSCOPE_DEPLOYMENT_BRIDGE_PORT,
    deploymentBridgeUrl: e.TOOLSCOPE_DEPLOYMENT_BRIDGE_URL?.replace(/\/+$/, ''),
    deploymentStopGraceMs: e.TOOLSCOPE_DEPLOYMENT_STOP_GRACE_MS,
    instanceId: e.TOOLSCOPE_INSTANCE_ID ?? os.hostname(),
    deploymentPath: e.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    deploymentHome: e.HOME ?? os.homedir(),
  };
}

/** TOOLSCOPE_DEPLOYMENTS: off | catalog | any; the earlier boolean spellings stay valid (on = any). */
function deploymentModeOf(value: string | undefined): 'off' | 'catalog' | 'any' | undefined {
  const v = (value ?? '').trim().toLowerCase();
  if (['', 'off', 'false', '0', 'no'].includes(v)) return 'off';
  if (v === 'catalog') return 'catalog';
  if (['any', 'on', 'true', '1', 'yes'].includes(v)) return 'any';
  return undefined;
}
