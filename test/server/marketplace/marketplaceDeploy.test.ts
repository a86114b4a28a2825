jest.setTimeout(120_000);

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { catalogSlug } from '../../../src/contract/marketplace';
import { marketplaceDeployPath } from '../../../src/contract/packageLaunch';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { addToWorkspace } from '../helpers/workspaceMembers';

// Marketplace → Deploy: the server builds the config from the catalog entry, keeps the package's
// secrets in workspace keys (the config holds only {{key:NAME}}), and deploys it.
const WEATHER = {
  name: 'io.github.acme/weather',
  description: 'Forecasts for agents',
  version: '1.2.0',
  packages: [
    {
      registryType: 'npm',
      identifier: '@acme-test/weather-mcp',
      version: '1.2.0',
      transport: { type: 'stdio' },
      packageArguments: [{ type: 'named', name: '--units', default: 'metric' }],
      environmentVariables: [
        { name: 'WEATHER_API_TOKEN', description: 'API token', isRequired: true, isSecret: true },
        { name: 'REGION', description: 'Region', default: 'eu' },
      ],
    },
  ],
};
const DOCKER_ONLY = {
  name: 'io.github.acme/boxed',
  description: 'Runs in a container',
  version: '1.0.0',
  packages: [{ registryType: 'oci', identifier: 'ghcr.io/acme/boxed', version: '1.0.0', transport: { type: 'stdio' } }],
};
/** Like the reference Filesystem server: a required positional argument the catalog leaves open. */
const FILES = {
  name: 'io.github.acme/files',
  description: 'Files in a directory',
  version: '2.0.0',
  packages: [
    {
      registryType: 'npm',
      identifier: '@acme-test/files-mcp',
      version: '2.0.0',
      transport: { type: 'stdio' },
      packageArguments: [
        { type: 'positional', valueHint: 'allowed_directory', description: 'A directory', isRequired: true },
      ],
    },
  ],
};
const REMOTE_ONLY = {
  name: 'io.github.acme/remote',
  description: 'Remote',
  version: '1.0.0',
  remotes: [{ type: 'streamable-http', url: 'https://example.com/mcp' }],
};

describe(`marketplace deploy (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let member: TestAccount;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'catalog-'));
    const file = path.join(dir, 'catalog.json');
    await writeFile(file, JSON.stringify({ servers: [WEATHER, DOCKER_ONLY, REMOTE_ONLY, FILES] }));
    t = await buildTestApp({ deploymentsEnabled: true, catalogFile: file });
    owner = await registerAccount(t.app);
    member = await registerAccount(t.app);
    await addToWorkspace(t.app, owner.workspaceId, member, 'member');
  });
  afterAll(() => t.close());

  const deploy = (who: TestAccount, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: marketplaceDeployPath(owner.workspaceId),
      headers: bearer(who.accessToken),
      payload,
    });
  const keys = () =>
    t.database.db.query<{ name: string; value_enc: string }>(
      'select name, value_enc from workspace_keys where workspace_id = $1 order by name',
      [owner.workspaceId],
    );
  const configs = () =>
    t.database.db.query<{ id: string; command: string; args: string[]; env: Record<string, string> }>(
      'select id, command, args, env from deployment_configs where workspace_id = $1 order by created_at',
      [owner.workspaceId],
    );

  it('refuses a missing secret with a field error, a member with 403, and changes nothing', async () => {
    const missing = await deploy(owner, { slug: catalogSlug(WEATHER.name), name: 'Weather' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: 'Missing values: WEATHER_API_TOKEN',
      fields: { 'secrets.WEATHER_API_TOKEN': 'Required' },
    });
    const byMember = await deploy(member, {
      slug: catalogSlug(WEATHER.name),
      name: 'Weather',
      secrets: { WEATHER_API_TOKEN: 'tok' },
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().message).toBe('Only workspace owners and admins can deploy servers');
    expect(await configs()).toEqual([]);
    expect(await keys()).toEqual([]);
  });

  it('deploys the package: its command from the catalog, the secret as a workspace key, never in the config', async () => {
    const res = await deploy(owner, {
      slug: catalogSlug(WEATHER.name),
      name: 'Weather',
      secrets: { WEATHER_API_TOKEN: 'sk-weather-123' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ keys: ['WEATHER_WEATHER_API_TOKEN'] });
    const [config] = await configs();
    expect(config).toMatchObject({
      id: res.json().configId,
      command: 'npx',
      args: ['-y', '@acme-test/weather-mcp@1.2.0', '--units', 'metric'],
      env: { WEATHER_API_TOKEN: '{{key:WEATHER_WEATHER_API_TOKEN}}', REGION: 'eu' },
    });
    const stored = await keys();
    expect(stored.map((k) => k.name)).toEqual(['WEATHER_WEATHER_API_TOKEN']);
    expect(stored[0].value_enc).not.toContain('sk-weather-123');
    const [deployment] = await t.database.db.query<{ id: string; config_id: string }>(
      'select id, config_id from deployments where id = $1',
      [res.json().deploymentId],
    );
    expect(deployment.config_id).toBe(config.id);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/v1/deployments/${deployment.id}`,
          headers: bearer(owner.accessToken),
        })
      ).statusCode,
    ).toBe(200);

    // Again without the secret: the stored key is used, not asked for again.
    const again = await deploy(owner, { slug: catalogSlug(WEATHER.name), name: 'Weather 2', env: { REGION: 'us' } });
    expect(again.statusCode).toBe(201);
    expect((await configs())[1].env).toEqual({ WEATHER_API_TOKEN: '{{key:WEATHER_WEATHER_API_TOKEN}}', REGION: 'us' });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/v1/deployments/${again.json().deploymentId}`,
          headers: bearer(owner.accessToken),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('says why a package cannot be deployed: a command the operator did not allow, a remote-only entry, an unknown slug', async () => {
    const before = (await configs()).length;
    const docker = await deploy(owner, { slug: catalogSlug(DOCKER_ONLY.name), name: 'Boxed' });
    expect(docker.statusCode).toBe(400);
    expect(docker.json().message).toMatch(/docker/);
    const remote = await deploy(owner, { slug: catalogSlug(REMOTE_ONLY.name), name: 'Remote' });
    expect(remote.statusCode).toBe(400);
    expect(remote.json().message).toBe(
      'This server has no package Toolscope can deploy (a stdio program of npm, PyPI or Docker)',
    );
    expect((await deploy(owner, { slug: 'nope', name: 'Nope' })).statusCode).toBe(404);
    expect((await configs()).length).toBe(before);
  });

  it('takes the values of arguments the catalog leaves open, refuses a missing or option-like one, and runs exactly the catalog command with it', async () => {
    const before = (await configs()).length;
    const missing = await deploy(owner, { slug: catalogSlug(FILES.name), name: 'Files' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: 'Missing values: allowed_directory',
      fields: { 'arguments.allowed_directory': 'Required' },
    });
    const optionLike = await deploy(owner, {
      slug: catalogSlug(FILES.name),
      name: 'Files',
      arguments: { allowed_directory: '--help' },
    });
    expect(optionLike.statusCode).toBe(400);
    expect(optionLike.json().message).toMatch(/Must not start with "-"/);
    expect((await configs()).length).toBe(before);

    const deployed = await deploy(owner, {
      slug: catalogSlug(FILES.name),
      name: 'Files',
      arguments: { allowed_directory: '/srv/shared files' },
    });
    expect(deployed.statusCode).toBe(201);
    const config = (await configs()).find((c) => c.id === deployed.json<{ configId: string }>().configId)!;
    expect(config.command).toBe('npx');
    expect(config.args).toEqual(['-y', '@acme-test/files-mcp@2.0.0', '/srv/shared files']);
  });
});
