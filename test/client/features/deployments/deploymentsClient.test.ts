import type { DeploymentConfigDto, DeploymentDto } from '../../../../src/contract/deployments';
import { StorageKeys } from '../../../../src/contract/constants';
import { makeStore } from '../../../../src/client/app/store';
import { deploymentsApi } from '../../../../src/client/features/deployments/deploymentsApi';
import {
  commandLine,
  EMPTY_CONFIG_FORM,
  formFromConfig,
  parseConfigForm,
} from '../../../../src/client/features/deployments/configForm';
import { createLiveMessageEffects } from '../../../../src/client/features/live/liveMessageEffects';
import { fakeAccessToken, installFakeApi, type FakeApi } from '../../helpers/fakeApi';

// The Hosted section's data: the config form both ways, and the live stream moving a config's
// status chip and appending to an open log, through the real store and endpoints.
const deployment = (changes: Partial<DeploymentDto> = {}): DeploymentDto => ({
  id: 'd-1',
  configId: 'c-1',
  workspaceId: 'ws-1',
  serverId: 's-1',
  status: 'starting',
  pid: null,
  startedAt: null,
  stoppedAt: null,
  restarts: 0,
  exitCode: null,
  signal: null,
  memoryBytes: null,
  lastError: null,
  lastStderr: [],
  sessionProcesses: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...changes,
});

const config: DeploymentConfigDto = {
  id: 'c-1',
  workspaceId: 'ws-1',
  name: 'Files',
  description: '',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', '/my data'],
  env: { LOG_LEVEL: 'info', TOKEN: '{{key:GITHUB_TOKEN}}' },
  cwd: '',
  restartPolicy: 'on-failure',
  maxRestarts: 5,
  startTimeoutMs: 30_000,
  limits: { memoryMb: 512 },
  isolation: { noNetwork: true },
  sessionMode: 'shared',
  serverId: 's-1',
  proxyUrl: 'http://localhost/mcp/key',
  latestDeployment: deployment(),
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('the config form', () => {
  it('reads arguments one per line and NAME=value environment lines, key references kept', () => {
    const parsed = parseConfigForm({
      ...EMPTY_CONFIG_FORM,
      name: ' Files ',
      args: '-y\n\n@scope/pkg\n',
      env: 'A=1\n# a comment\nB=x=y\nTOKEN={{key:GH}}',
    });
    expect(parsed).toEqual({
      ok: true,
      body: expect.objectContaining({
        name: 'Files',
        args: ['-y', '@scope/pkg'],
        env: { A: '1', B: 'x=y', TOKEN: '{{key:GH}}' },
        startTimeoutMs: 30_000,
        maxRestarts: 5,
      }),
    });
  });

  it('names the fields it cannot read', () => {
    const parsed = parseConfigForm({
      ...EMPTY_CONFIG_FORM,
      name: 'x',
      env: 'no equals sign',
      maxRestarts: '-1',
      memoryMb: 'lots',
    });
    expect(parsed).toEqual({
      ok: false,
      fields: {
        env: 'Line 1: write NAME=value',
        maxRestarts: 'A whole number, 0 or more',
        'limits.memoryMb': 'A whole number of MiB',
      },
    });
  });

  it('round-trips a stored config', () => {
    const parsed = parseConfigForm(formFromConfig(config));
    expect(parsed.ok && parsed.body).toMatchObject({
      command: 'npx',
      args: config.args,
      env: config.env,
      limits: { memoryMb: 512, openFiles: null },
      isolation: { noNetwork: true, ownPidNamespace: false },
    });
  });

  it('shows the command line quoted as a user would type it', () => {
    expect(commandLine(config)).toBe("npx -y @modelcontextprotocol/server-filesystem '/my data'");
  });
});

describe('deployment messages of the live stream', () => {
  let api: FakeApi;
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
    api = installFakeApi();
  });
  afterEach(() => api.restore());

  it("moves the config's status and appends log lines to an open log, in order and once", async () => {
    api.on('GET', '/api/v1/deployment-configs', { body: [config] });
    api.on('GET', '/api/v1/deployments/d-1/logs', {
      body: {
        lines: [{ seq: 1, at: '2026-01-01T00:00:00.000Z', stream: 'system', text: 'Started' }],
        hasEarlier: false,
      },
    });
    const store = makeStore();
    const configs = store.dispatch(deploymentsApi.endpoints.getDeploymentConfigs.initiate('ws-1'));
    const logs = store.dispatch(deploymentsApi.endpoints.getDeploymentLogs.initiate({ deploymentId: 'd-1' }));
    await configs;
    await logs;
    const deliver = createLiveMessageEffects({
      dispatch: store.dispatch,
      getState: () => store.getState(),
      toast: () => undefined,
      setTimer: () => undefined,
    });

    deliver({ type: 'deployment_updated', data: deployment({ status: 'running', pid: 42 }) }, 'ws-1');
    // An older deployment's news does not replace the newer one's.
    deliver(
      {
        type: 'deployment_updated',
        data: deployment({ id: 'd-0', status: 'stopped', createdAt: '2025-12-31T00:00:00.000Z' }),
      },
      'ws-1',
    );
    const line = (seq: number, text: string) => ({
      seq,
      at: '2026-01-01T00:00:01.000Z',
      stream: 'stderr' as const,
      text,
    });
    deliver(
      {
        type: 'deployment_log',
        data: {
          deploymentId: 'd-1',
          configId: 'c-1',
          lines: [line(1, 'Started'), line(2, 'listening'), line(3, 'ready')],
        },
      },
      'ws-1',
    );

    const cachedConfigs = deploymentsApi.endpoints.getDeploymentConfigs.select('ws-1')(store.getState()).data!;
    expect(cachedConfigs[0].latestDeployment).toMatchObject({ id: 'd-1', status: 'running', pid: 42 });
    const cachedLogs = deploymentsApi.endpoints.getDeploymentLogs.select({ deploymentId: 'd-1' })(
      store.getState(),
    ).data!;
    expect(cachedLogs.lines.map((l) => l.text)).toEqual(['Started', 'listening', 'ready']);
    configs.unsubscribe();
    logs.unsubscribe();
  });
});
