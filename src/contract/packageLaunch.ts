import { z } from 'zod';
import { runKindOf, type CatalogArgument, type CatalogPackage } from './marketplace';
import { API } from './routes';

// How a catalog package (server.json "packages") becomes a program Toolscope deploys: the command
// and arguments, and the environment variables it asks for. Shared so the marketplace page shows
// exactly what the server will run (docs/marketplace.md, "Deploy").

/** The program launchers a package maps onto; docker runs only where an operator allows it. */
const LAUNCHER = { npm: 'npx', pypi: 'uvx', docker: 'docker' } as const;

export interface PackageEnvInput {
  name: string;
  description: string;
  required: boolean;
  secret: boolean;
  default?: string;
}

export interface PackageLaunch {
  command: string;
  args: string[];
  env: PackageEnvInput[];
  /** Arguments the package needs that nobody gave a value for: such a package is run by hand. */
  unfilledArguments: string[];
}

function argumentValues(arg: CatalogArgument, unfilled: string[]): string[] {
  const value = arg.value ?? arg.default;
  if (value === undefined) {
    if (arg.isRequired) unfilled.push(arg.name ?? arg.valueHint ?? 'argument');
    return [];
  }
  if (arg.type === 'named') return arg.name ? [arg.name, value] : [];
  return [value];
}

/** null when the package is not a stdio program of a kind Toolscope knows how to start. */
export function packageLaunch(pkg: CatalogPackage): PackageLaunch | null {
  const kind = runKindOf(pkg);
  if (!kind || kind === 'remote' || pkg.transport.type !== 'stdio') return null;
  const unfilled: string[] = [];
  const runtimeArgs = (pkg.runtimeArguments ?? []).flatMap((a) => argumentValues(a, unfilled));
  const packageArgs = (pkg.packageArguments ?? []).flatMap((a) => argumentValues(a, unfilled));
  const env: PackageEnvInput[] = (pkg.environmentVariables ?? []).map((v) => ({
    name: v.name,
    description: v.description ?? '',
    required: v.isRequired === true,
    secret: v.isSecret === true,
    ...(v.default !== undefined ? { default: v.default } : {}),
  }));
  let args: string[];
  if (kind === 'docker') {
    const image = pkg.version && !pkg.identifier.includes(':') ? `${pkg.identifier}:${pkg.version}` : pkg.identifier;
    // `-e NAME` hands the variable from the deployment's environment to the container.
    args = ['run', '-i', '--rm', ...runtimeArgs, ...env.flatMap((v) => ['-e', v.name]), image, ...packageArgs];
  } else if (kind === 'pypi') {
    args = [...runtimeArgs, pkg.version ? `${pkg.identifier}==${pkg.version}` : pkg.identifier, ...packageArgs];
  } else {
    args = ['-y', ...runtimeArgs, pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier, ...packageArgs];
  }
  return { command: LAUNCHER[kind], args, env, unfilledArguments: unfilled };
}

/**
 * The workspace key that holds a package's secret: "io.github.acme/weather" + API_TOKEN →
 * WEATHER_API_TOKEN. Stable, so deploying again reuses (or rotates) the same key.
 */
export function packageSecretKeyName(serverName: string, envName: string): string {
  const tail = (serverName.split('/').pop() ?? serverName).toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  const name = `${tail ? `${tail}_` : ''}${envName.toUpperCase()}`.replace(/^[0-9]+/, '');
  return name.slice(0, 64);
}

/** POST /api/v1/workspaces/{workspaceId}/marketplace/deployments (owners and admins). */
export const DeployCatalogPackageBody = z.object({
  slug: z.string().min(1).max(300),
  name: z.string().trim().min(1, 'Name is required').max(100),
  /** Which of the entry's packages (its index in server.json "packages"); default the first deployable one. */
  packageIndex: z.number().int().min(0).max(100).optional(),
  /** Values of the package's plain environment variables. */
  env: z.record(z.string(), z.string().max(8192)).optional().default({}),
  /** Values of its secret variables: stored as workspace keys, never in the config. Left out: the existing key is used. */
  secrets: z.record(z.string(), z.string().max(8192)).optional().default({}),
});
export type DeployCatalogPackageBody = z.input<typeof DeployCatalogPackageBody>;

export const DeployCatalogPackageResult = z.object({
  configId: z.string(),
  deploymentId: z.string(),
  /** The workspace keys that hold the secrets (created or rotated). */
  keys: z.array(z.string()),
});
export type DeployCatalogPackageResult = z.infer<typeof DeployCatalogPackageResult>;

export const marketplaceDeployPath = (workspaceId: string) => `${API}/workspaces/${workspaceId}/marketplace/deployments`;
