// Feature flags of SPEC §2. Unknown flags are off. An operator overrides them at run time with
// TOOLSCOPE_FLAGS="name=true,other=false"; the server hands the result to the SPA (/api/v1/config).
export const FLAG_NAMES = [
  'show_cost_analytics',
  'show_cost_attribution',
  'show_thought_tracing',
  'show_marketplace',
  'show_upgrade_pro',
  'show_schema_studio',
  'show_performance',
  'show_integrations',
  'show_deployments',
  'show_onboarding_modal',
  'show_workspace_telemetry',
  'show_workspace_security',
  'show_workspace_integrations',
  'show_personal_preferences',
  'show_personal_security',
  'debug_api',
  'debug_ws',
  'dev_mode',
  'bypass_auth',
] as const;

export type FlagName = (typeof FLAG_NAMES)[number];
export type Flags = Record<FlagName, boolean>;

/** SPEC: marketplace, performance and integrations default on; thought tracing is always on. */
export const DEFAULT_FLAGS: Flags = {
  show_cost_analytics: false,
  show_cost_attribution: false,
  show_thought_tracing: true,
  show_marketplace: true,
  show_upgrade_pro: false,
  show_schema_studio: false,
  show_performance: true,
  show_integrations: true,
  show_deployments: false,
  show_onboarding_modal: true,
  show_workspace_telemetry: false,
  show_workspace_security: false,
  show_workspace_integrations: false,
  show_personal_preferences: false,
  show_personal_security: false,
  debug_api: false,
  debug_ws: false,
  dev_mode: false,
  bypass_auth: false,
};

/** Flags that no override can turn off. */
const ALWAYS_ON: readonly FlagName[] = ['show_thought_tracing'];

export function isFlagName(name: string): name is FlagName {
  return (FLAG_NAMES as readonly string[]).includes(name);
}

/** Parses "a=true,b=false,c" (bare name = on). Unknown names are ignored (they are off). */
export function parseFlagOverrides(text: string | undefined): Partial<Flags> {
  const out: Partial<Flags> = {};
  if (!text) return out;
  for (const part of text.split(',')) {
    // split() gives at least one part; a bare name (no "=") means on.
    const [rawName, rawValue = 'true'] = part.split('=');
    const name = rawName.trim();
    if (!name || !isFlagName(name)) continue;
    const value = rawValue.trim().toLowerCase();
    out[name] = value === 'true' || value === '1' || value === 'on' || value === 'yes';
  }
  return out;
}

export function resolveFlags(overrides: Partial<Flags> = {}): Flags {
  const flags = { ...DEFAULT_FLAGS, ...overrides };
  for (const name of ALWAYS_ON) flags[name] = true;
  return flags;
}

/** Reads a flag by any name; unknown names are off. */
export function isFlagOn(flags: Partial<Flags>, name: string): boolean {
  return isFlagName(name) ? Boolean(flags[name]) : false;
}
