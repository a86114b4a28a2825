import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_FLAGS } from '../../../../src/contract/flags';
import type { CatalogDetail } from '../../../../src/contract/marketplace';
import { marketplaceDeployPath } from '../../../../src/contract/packageLaunch';
import { Paths } from '../../../../src/contract/routes';
import { DeployPackageForm } from '../../../../src/client/features/marketplace/components/DeployPackageForm';
import { workspacesApi } from '../../../../src/client/features/workspaces/workspacesApi';
import { renderShellApp } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

const ENTRY: CatalogDetail = {
  slug: 'io-github-acme-weather',
  name: 'io.github.acme/weather',
  title: 'Weather',
  description: 'Forecasts',
  version: '1.2.0',
  category: 'data',
  tags: [],
  runKinds: ['npm'],
  transports: ['stdio'],
  needsSecrets: true,
  iconUrl: null,
  tools: [],
  server: {
    name: 'io.github.acme/weather',
    description: 'Forecasts',
    version: '1.2.0',
    packages: [
      {
        registryType: 'npm',
        identifier: '@acme/weather-mcp',
        version: '1.2.0',
        transport: { type: 'stdio' },
        environmentVariables: [
          { name: 'WEATHER_API_TOKEN', description: 'API token', isRequired: true, isSecret: true },
          { name: 'REGION', description: 'Region', default: 'eu' },
        ],
      },
    ],
  },
};

const configWith = (deployments: { enabled: boolean; allowedCommands: string[] }) => ({
  body: { flags: DEFAULT_FLAGS, plans: [], environment: 'production', version: 'test', publicUrl: null, deployments },
});

let api: FakeApi | undefined;
afterEach(() => api?.restore());

describe('Marketplace → Deploy', () => {
  it("shows the command that will run, sends the secret to the server's deploy route, and opens Tool Servers", async () => {
    let sent: unknown;
    const context = renderShellApp(<DeployPackageForm entry={ENTRY} />, {
      signedIn: true,
      path: '/marketplace/io-github-acme-weather',
      configureApi: (fake) => {
        fake.on('GET', Paths.config, configWith({ enabled: true, allowedCommands: ['node', 'npx', 'uvx'] }));
        fake.on('POST', marketplaceDeployPath('ws-1'), ({ body }) => {
          sent = body;
          return { status: 201, body: { configId: 'c-1', deploymentId: 'd-1', keys: ['WEATHER_WEATHER_API_TOKEN'] } };
        });
      },
    });
    api = context.api;
    // The shell loads the workspace list; here the test does.
    await context.store.dispatch(workspacesApi.endpoints.getWorkspaces.initiate());
    expect(await screen.findByText('npx -y @acme/weather-mcp@1.2.0')).toBeInTheDocument();
    expect(screen.getByText(/Stored as the workspace key WEATHER_WEATHER_API_TOKEN/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/WEATHER_API_TOKEN/), 'sk-123');
    await userEvent.click(screen.getByRole('button', { name: 'Deploy' }));
    await waitFor(() => expect(context.location().pathname).toBe('/servers'));
    expect(sent).toEqual({
      slug: 'io-github-acme-weather',
      name: 'Weather',
      packageIndex: 0,
      env: {},
      secrets: { WEATHER_API_TOKEN: 'sk-123' },
      arguments: {},
    });
    expect(await screen.findByText('Deployment started')).toBeInTheDocument();
  });

  it('asks for an argument the catalog leaves open, shows it in the command, and sends it', async () => {
    const files: CatalogDetail = {
      ...ENTRY,
      slug: 'io-github-acme-files',
      title: 'Files',
      needsSecrets: false,
      server: {
        name: 'io.github.acme/files',
        description: 'Files',
        version: '2.0.0',
        packages: [
          {
            registryType: 'npm',
            identifier: '@acme/files-mcp',
            version: '2.0.0',
            transport: { type: 'stdio' },
            packageArguments: [
              { type: 'positional', valueHint: 'allowed_directory', description: 'A directory', isRequired: true },
            ],
          },
        ],
      },
    };
    let sent: unknown;
    const context = renderShellApp(<DeployPackageForm entry={files} />, {
      signedIn: true,
      path: '/marketplace/io-github-acme-files',
      configureApi: (fake) => {
        fake.on('GET', Paths.config, configWith({ enabled: true, allowedCommands: ['npx'] }));
        fake.on('POST', marketplaceDeployPath('ws-1'), ({ body }) => {
          sent = body;
          return { status: 201, body: { configId: 'c-2', deploymentId: 'd-2', keys: [] } };
        });
      },
    });
    api = context.api;
    await context.store.dispatch(workspacesApi.endpoints.getWorkspaces.initiate());
    expect(await screen.findByText('npx -y @acme/files-mcp@2.0.0')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/allowed_directory/), '/srv/shared');
    expect(screen.getByText('npx -y @acme/files-mcp@2.0.0 /srv/shared')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Deploy' }));
    await waitFor(() => expect(context.location().pathname).toBe('/servers'));
    expect(sent).toMatchObject({ slug: 'io-github-acme-files', arguments: { allowed_directory: '/srv/shared' } });
  });

  it("shows the server's field error at its input and stays", async () => {
    const context = renderShellApp(<DeployPackageForm entry={ENTRY} />, {
      signedIn: true,
      path: '/marketplace/io-github-acme-weather',
      configureApi: (fake) => {
        fake.on('GET', Paths.config, configWith({ enabled: true, allowedCommands: ['npx'] }));
        fake.on('POST', marketplaceDeployPath('ws-1'), {
          status: 400,
          body: {
            message: 'Missing values: WEATHER_API_TOKEN',
            code: 'bad_request',
            fields: { 'secrets.WEATHER_API_TOKEN': 'Required' },
          },
        });
      },
    });
    api = context.api;
    await context.store.dispatch(workspacesApi.endpoints.getWorkspaces.initiate());
    await userEvent.click(await screen.findByRole('button', { name: 'Deploy' }));
    expect(await screen.findByText(/Missing values: WEATHER_API_TOKEN/)).toBeInTheDocument();
    expect(screen.getByText('Required')).toBeInTheDocument();
    expect(context.location().pathname).toBe('/marketplace/io-github-acme-weather');
  });

  it('explains what an operator does when deployments are off or the command is not allowed', async () => {
    let context = renderShellApp(<DeployPackageForm entry={ENTRY} />, {
      signedIn: true,
      configureApi: (fake) => fake.on('GET', Paths.config, configWith({ enabled: false, allowedCommands: [] })),
    });
    api = context.api;
    expect(await screen.findByText(/Deployments are off on this Toolscope/)).toBeInTheDocument();
    context.unmount();
    api.restore();
    context = renderShellApp(<DeployPackageForm entry={ENTRY} />, {
      signedIn: true,
      configureApi: (fake) => fake.on('GET', Paths.config, configWith({ enabled: true, allowedCommands: ['node'] })),
    });
    api = context.api;
    expect(await screen.findByText(/does not allow the command npx/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Deploy' })).toBeDisabled();
  });
});
