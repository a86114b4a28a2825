import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEPLOYMENT_CONFIG_DEFAULTS, ENV_NAME } from '../../../contract/deployments';
import type { CatalogServerJson } from '../../../contract/marketplace';
import {
  DeployCatalogPackageBody,
  DeployCatalogPackageResult,
  packageLaunch,
  packageSecretKeyName,
  type PackageLaunch,
} from '../../../contract/packageLaunch';
import { badRequest, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import type { Queryable } from '../../db/database';
import { assertDeploymentsEnabled } from '../deployments/access';
import { assertConfigAllowed } from '../../deployments/configRules';
import { insertConfig } from '../../data/deployments/configStore';
import {
  insertWorkspaceKey,
  listWorkspaceKeys,
  sealKeyValue,
  updateWorkspaceKey,
} from '../../data/keys/workspaceKeyStore';
import { catalogFor } from './catalogSource';

// Marketplace → Deploy (docs/marketplace.md): a catalog package becomes a deployment config of the
// workspace and is deployed at once. The server builds the command from the catalog itself (the
// browser only names the entry), and the package's secrets become workspace keys the config
// references as {{key:NAME}}: no secret is ever stored in plain config.

function pickPackage(
  server: CatalogServerJson,
  index: number | undefined,
  given: Partial<Record<string, string>>,
): PackageLaunch {
  const packages = server.packages ?? [];
  if (index !== undefined) {
    const launch = packages[index] ? packageLaunch(packages[index], given) : null;
    if (!launch)
      throw badRequest(
        'That package cannot be deployed by Toolscope: it is not a stdio program of npm, PyPI or Docker',
      );
    return launch;
  }
  for (const pkg of packages) {
    const launch = packageLaunch(pkg, given);
    if (launch) return launch;
  }
  throw badRequest('This server has no package Toolscope can deploy (a stdio program of npm, PyPI or Docker)');
}

/** The config's env: plain values inline, secrets as key references; field errors for what is missing. */
function environmentOf(
  server: CatalogServerJson,
  launch: PackageLaunch,
  // The agent's maps: an input the body does not name is missing from them.
  body: { env: Partial<Record<string, string>>; secrets: Partial<Record<string, string>> },
  existingKeys: Set<string>,
): { env: Record<string, string>; secrets: { key: string; value?: string }[] } {
  const env: Record<string, string> = {};
  const secrets: { key: string; value?: string }[] = [];
  const fields: Record<string, string> = {};
  for (const input of launch.env) {
    if (!ENV_NAME.test(input.name)) continue; // not a name a process environment can carry
    if (input.secret) {
      const key = packageSecretKeyName(server.name, input.name);
      const value = body.secrets[input.name]?.trim();
      if (value) secrets.push({ key, value });
      else if (existingKeys.has(key)) secrets.push({ key });
      else if (input.required) {
        fields[`secrets.${input.name}`] = 'Required';
        continue;
      } else continue;
      env[input.name] = `{{key:${key}}}`;
    } else {
      const value = body.env[input.name]?.trim() || input.default;
      if (value) env[input.name] = value;
      else if (input.required) fields[`env.${input.name}`] = 'Required';
    }
  }
  if (Object.keys(fields).length > 0)
    throw badRequest(
      `Missing values: ${Object.keys(fields)
        .map((f) => f.split('.')[1])
        .join(', ')}`,
      fields,
    );
  return { env, secrets };
}

async function storeSecrets(
  db: Queryable,
  workspaceId: string,
  secrets: { key: string; value?: string }[],
  secret: string,
  source: string,
): Promise<string[]> {
  const existing = new Map((await listWorkspaceKeys(db, workspaceId)).map((k) => [k.name, k.id]));
  for (const { key, value } of secrets) {
    if (value === undefined) continue;
    const valueEnc = sealKeyValue(value, secret);
    const id = existing.get(key);
    // Deploying again with a new value rotates the key every deployment of this server references.
    if (id) await updateWorkspaceKey(db, workspaceId, id, { valueEnc });
    else
      await insertWorkspaceKey(db, {
        workspaceId,
        name: key,
        description: `Secret of ${source} (set by Marketplace → Deploy)`,
        valueEnc,
        // For the deployed program's environment: no upstream header host may receive it.
        allowedHosts: [],
      });
  }
  return secrets.map((s) => s.key);
}

export const marketplaceDeployRoute: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/marketplace/deployments',
    {
      config: { minRole: 'admin', roleRefusal: 'Only workspace owners and admins can deploy servers' },
      schema: {
        tags: ['marketplace'],
        summary:
          "Deploy a catalog package: a deployment config with the package's command, its secrets as workspace keys, deployed at once",
        body: DeployCatalogPackageBody,
        response: { 201: DeployCatalogPackageResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params as { workspaceId: string };
      assertDeploymentsEnabled(app);
      const server = (await catalogFor(app.config).get()).bySlug.get(request.body.slug);
      if (!server) throw notFound('No server with that name in the marketplace');
      const launch = pickPackage(server, request.body.packageIndex, request.body.arguments);
      if (launch.unfilledArguments.length > 0) {
        throw badRequest(
          `Missing values: ${launch.unfilledArguments.join(', ')}`,
          Object.fromEntries(launch.unfilledArguments.map((key) => [`arguments.${key}`, 'Required'])),
        );
      }
      const existingKeys = new Set((await listWorkspaceKeys(app.db, workspaceId)).map((k) => k.name));
      const { env, secrets } = environmentOf(server, launch, request.body, existingKeys);
      const fields = {
        ...DEPLOYMENT_CONFIG_DEFAULTS,
        name: request.body.name,
        description: server.description,
        command: launch.command,
        args: launch.args,
        env,
      };
      assertConfigAllowed(fields, app.config.deploymentCommands, app.deployments.runner.hostTools);
      const keys = await storeSecrets(app.db, workspaceId, secrets, app.config.secret, server.name);
      const config = await insertConfig(app.db, workspaceId, fields);
      const deployment = await app.deployments.deploy(config);
      return reply.status(201).send({ configId: config.id, deploymentId: deployment.id, keys });
    },
  );
  return Promise.resolve();
};
