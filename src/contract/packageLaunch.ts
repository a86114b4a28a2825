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

/** A required argument the catalog gives no value for: the one deploying fills it in. */
export interface PackageArgumentInput {
  /** The argument's name, else its value hint (e.g. allowed_directory). */
  key: string;
  description: string;
}

export interface PackageLaunch {
  command: string;
  args: string[];
  env: PackageEnvInput[];
  /** The required arguments a deploy must give values for (whether given here or not). */
  arguments: PackageArgumentInput[];
  /** Positions in `args` that hold given argument values (catalog admission lets those vary). */
  argumentSlots: number[];
  /** Required arguments with no value given: such a package cannot be deployed yet. */
  unfilledArguments: string[];
}

/**
 * A value given for an argument: one argv entry, never an option of its own (a leading '-' could
 * turn a path into a flag of the package) and no control characters.
 */
export const ArgumentValue = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(4096)
  .refine((value) => !value.startsWith('-'), 'Must not start with "-"')
  .refine((value) => {
    for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) < 0x20) return false;
    return true;
  }, 'Must be one line of text');

interface Piece {
  value: string;
  given: boolean;
}

function argumentPieces(
  arg: CatalogArgument,
  given: Partial<Record<string, string>>,
  inputs: PackageArgumentInput[],
  unfilled: string[],
): Piece[] {
  let value = arg.value ?? arg.default;
  let fromUser = false;
  if (value === undefined) {
    if (!arg.isRequired) return [];
    const key = arg.name ?? arg.valueHint ?? 'argument';
    inputs.push({ key, description: arg.description ?? '' });
    value = given[key];
    if (value === undefined) {
      unfilled.push(key);
      return [];
    }
    fromUser = true;
  }
  if (arg.type === 'named')
    return arg.name
      ? [
          { value: arg.name, given: false },
          { value, given: fromUser },
        ]
      : [];
  return [{ value, given: fromUser }];
}

/**
 * null when the package is not a stdio program of a kind Toolscope knows how to start. `given`:
 * values for its required arguments, by key.
 */
export function packageLaunch(pkg: CatalogPackage, given: Partial<Record<string, string>> = {}): PackageLaunch | null {
  const kind = runKindOf(pkg);
  if (!kind || kind === 'remote' || pkg.transport.type !== 'stdio') return null;
  const unfilled: string[] = [];
  const inputs: PackageArgumentInput[] = [];
  const runtimePieces = (pkg.runtimeArguments ?? []).flatMap((a) => argumentPieces(a, given, inputs, unfilled));
  const packagePieces = (pkg.packageArguments ?? []).flatMap((a) => argumentPieces(a, given, inputs, unfilled));
  const runtimeArgs = runtimePieces.map((p) => p.value);
  const packageArgs = packagePieces.map((p) => p.value);
  const env: PackageEnvInput[] = (pkg.environmentVariables ?? []).map((v) => ({
    name: v.name,
    description: v.description ?? '',
    required: v.isRequired === true,
    secret: v.isSecret === true,
    ...(v.default !== undefined ? { default: v.default } : {}),
  }));
  // What comes before the runtime arguments, and between them and the package arguments.
  let head: string[];
  let middle: string[];
  if (kind === 'docker') {
    const image = pkg.version && !pkg.identifier.includes(':') ? `${pkg.identifier}:${pkg.version}` : pkg.identifier;
    // `-e NAME` hands the variable from the deployment's environment to the container.
    head = ['run', '-i', '--rm'];
    middle = [...env.flatMap((v) => ['-e', v.name]), image];
  } else if (kind === 'pypi') {
    head = [];
    middle = [pkg.version ? `${pkg.identifier}==${pkg.version}` : pkg.identifier];
  } else {
    head = ['-y'];
    middle = [pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier];
  }
  const args = [...head, ...runtimeArgs, ...middle, ...packageArgs];
  const slotsOf = (pieces: Piece[], offset: number) => pieces.flatMap((piece, i) => (piece.given ? [offset + i] : []));
  const argumentSlots = [
    ...slotsOf(runtimePieces, head.length),
    ...slotsOf(packagePieces, head.length + runtimeArgs.length + middle.length),
  ];
  return { command: LAUNCHER[kind], args, env, arguments: inputs, argumentSlots, unfilledArguments: unfilled };
}

/**
 * The workspace key that holds a package's secret: "io.github.acme/weather" + API_TOKEN →
 * WEATHER_API_TOKEN. Stable, so deploying again reuses (or rotates) the same key.
 */
export function packageSecretKeyName(serverName: string, envName: string): string {
  const tail = (serverName.split('/').pop() ?? serverName)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
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
  /** Values of its required arguments the catalog leaves open (e.g. Filesystem's allowed_directory), by key. */
  arguments: z.record(z.string(), ArgumentValue).optional().default({}),
});
export type DeployCatalogPackageBody = z.input<typeof DeployCatalogPackageBody>;

export const DeployCatalogPackageResult = z.object({
  configId: z.string(),
  deploymentId: z.string(),
  /** The workspace keys that hold the secrets (created or rotated). */
  keys: z.array(z.string()),
});
export type DeployCatalogPackageResult = z.infer<typeof DeployCatalogPackageResult>;

export const marketplaceDeployPath = (workspaceId: string) =>
  `${API}/workspaces/${workspaceId}/marketplace/deployments`;
