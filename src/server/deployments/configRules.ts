import path from 'node:path';
import { referencedKeyNames } from '../../contract/keys';
import type { DeploymentIsolation, DeploymentLimits } from '../../contract/deployments';
import { badRequest } from '../http/errors';
import { missingLimits, type HostTools } from './hostIsolation';

// The operator's rules for a config, checked when it is created or changed and again at deploy
// (the operator may have changed the list since).
export interface ConfigRuleInput {
  command: string;
  env: Record<string, string>;
  cwd: string;
  limits: DeploymentLimits;
  isolation: DeploymentIsolation;
}

export function assertCommandAllowed(command: string, allowed: string[]): void {
  if (allowed.includes(command)) return;
  const message = `The command "${command}" is not allowed on this Toolscope. Allowed: ${allowed.join(', ') || 'none'}. An operator can allow it by adding it to TOOLSCOPE_DEPLOYMENT_COMMANDS (comma-separated) and restarting Toolscope.`;
  throw badRequest(message, { command: message });
}

/** A relative folder inside the deployment's working folder, or empty. */
export function assertCwdInside(cwd: string): void {
  if (!cwd) return;
  const normalized = path.posix.normalize(cwd.replace(/\\/g, '/'));
  if (path.posix.isAbsolute(normalized) || normalized === '..' || normalized.startsWith('../') || cwd.includes('\0')) {
    const message = "cwd must be a relative folder inside the deployment's working folder";
    throw badRequest(message, { cwd: message });
  }
}

/** Names of the workspace keys an environment refers to as {{key:NAME}}. */
export function referencedKeys(env: Record<string, string>): string[] {
  return [...new Set(Object.values(env).flatMap(referencedKeyNames))];
}

export function assertHostSupports(tools: HostTools, limits: DeploymentLimits): void {
  const missing = missingLimits(tools, limits);
  if (missing) throw badRequest(missing, { isolation: missing });
}

export function assertConfigAllowed(input: ConfigRuleInput, allowedCommands: string[], tools: HostTools): void {
  assertCommandAllowed(input.command, allowedCommands);
  assertCwdInside(input.cwd);
  assertHostSupports(tools, input.limits);
}
