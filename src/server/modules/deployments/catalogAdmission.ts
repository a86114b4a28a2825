import type { FastifyInstance } from 'fastify';
import { ArgumentValue, packageLaunch, type PackageLaunch } from '../../../contract/packageLaunch';
import { badRequest } from '../../http/errors';
import { catalogFor } from '../marketplace/catalogSource';
import { shellCapableForm } from './shellForms';

// TOOLSCOPE_DEPLOYMENTS=catalog: a deployment may run only a marketplace entry's package, with the
// command and arguments the catalog fixes, and an environment of the variables that package
// declares (so no NODE_OPTIONS, PYTHONSTARTUP or LD_PRELOAD slips code in beside it). Checked when
// a config is created or changed, at every deploy and at every restore (the operator may have
// switched modes since). In `any` mode only the command allowlist applies.
export interface AdmissionInput {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export function assertNoShellForm(input: AdmissionInput): void {
  const form = shellCapableForm(input.command, input.args);
  if (!form) return;
  const message = `This Toolscope deploys marketplace packages only (TOOLSCOPE_DEPLOYMENTS=catalog): ${form} runs code given on the command line and is not allowed. Deploy the server from the Marketplace instead.`;
  throw badRequest(message, { args: message });
}

export async function assertCatalogAdmits(app: FastifyInstance, input: AdmissionInput): Promise<void> {
  if (app.config.deploymentMode !== 'catalog') return;
  assertNoShellForm(input);
  const catalog = await catalogFor(app.config).get();
  for (const server of catalog.bySlug.values()) {
    for (const pkg of server.packages ?? []) {
      // Every open argument given a stand-in: its slot may hold any value a deploy gave it.
      const open = packageLaunch(pkg);
      const launch = open && packageLaunch(pkg, Object.fromEntries(open.arguments.map((a) => [a.key, 'x'])));
      if (!launch || launch.unfilledArguments.length > 0) continue;
      if (launch.command !== input.command || !sameArgs(launch, input.args)) continue;
      const declared = new Set(launch.env.map((v) => v.name));
      const undeclared = Object.keys(input.env).filter((name) => !declared.has(name));
      if (undeclared.length > 0) {
        const message = `This Toolscope deploys marketplace packages only (TOOLSCOPE_DEPLOYMENTS=catalog), with the environment variables their entry declares: ${undeclared.join(', ')} ${undeclared.length > 1 ? 'are' : 'is'} not among them.`;
        throw badRequest(message, { env: message });
      }
      return;
    }
  }
  const message =
    'This Toolscope deploys marketplace packages only (TOOLSCOPE_DEPLOYMENTS=catalog): this command and its arguments are not a package of the marketplace. Deploy the server from the Marketplace instead.';
  throw badRequest(message, { command: message });
}

/** The catalog's arguments exactly, but for the slots of open arguments: any value a deploy may give. */
function sameArgs(launch: PackageLaunch, args: string[]): boolean {
  const slots = new Set(launch.argumentSlots);
  return (
    launch.args.length === args.length &&
    launch.args.every((value, i) =>
      slots.has(i) ? ArgumentValue.safeParse(args[i]).success && args[i] === args[i].trim() : value === args[i],
    )
  );
}
