import type { DeploymentConfigDto, DeploymentDto } from '../contract/deployments';
import type { SchemaDto, SchemaListResult } from '../contract/schemas';
import type { ServerDto } from '../contract/servers';
import { DemoApi, DemoApiError, GiveUp, Paths, waitUntil } from './demoApi';
import { LOOKUP_CUSTOMER_DESCRIPTIONS, type DemoOpsServer } from './demoOpsServer';

// What the demo does through Toolscope's REST API, step by step: the account, the two servers,
// the schema story (a version written by hand, then the upstream changing under the agent, then a
// rollback) and an outage. Each step is a function of its own so a test can run the same steps
// against an app it started.

export interface DemoAccount {
  email: string;
  password: string;
  accessToken: string;
  workspaceId: string;
}

export interface DemoServer {
  serverId: string;
  name: string;
  proxyUrl: string;
}

/** Signs the demo user up (or in, when the data dir already has it) and finds their workspace. */
export async function createDemoAccount(api: DemoApi, email: string, password: string): Promise<DemoAccount> {
  let accessToken: string;
  try {
    ({ accessToken } = await api.post<{ accessToken: string }>(Paths.register, {
      email,
      password,
      passwordConfirmation: password,
      firstName: 'Demo',
      lastName: 'User',
    }));
  } catch (error) {
    if (!(error instanceof DemoApiError) || error.status !== 409) throw error;
    ({ accessToken } = await api.post<{ accessToken: string }>(Paths.login, { email, password }));
  }
  api.signedIn(accessToken);
  const { workspaces } = await api.get<{ workspaces: { id: string }[] }>(Paths.workspaces);
  return { email, password, accessToken, workspaceId: workspaces[0].id };
}

/**
 * server-everything as a deployment: Toolscope runs it over stdio under supervision and gives it
 * a proxy URL. Reuses the config a kept data dir already has.
 */
export async function deployEverything(
  api: DemoApi,
  workspaceId: string,
  everythingEntry: string,
): Promise<DemoServer & { deploymentId: string }> {
  const name = 'Everything';
  const existing = (
    await api.get<DeploymentConfigDto[]>(`${Paths.deploymentConfigs}?workspace_id=${workspaceId}`)
  ).find((c) => c.name === name);
  const config =
    existing ??
    (await api.post<DeploymentConfigDto>(Paths.deploymentConfigCreate, {
      workspace_id: workspaceId,
      name,
      description: 'The MCP reference server (@modelcontextprotocol/server-everything), run by Toolscope over stdio',
      command: 'node',
      args: [everythingEntry, 'stdio'],
      restartPolicy: 'on-failure',
    }));
  let deployment = existing?.latestDeployment;
  if (!deployment || deployment.status !== 'running')
    deployment = await api.post<DeploymentDto>(Paths.deploymentConfigDeploy(config.id), {});
  const running = await waitUntil(
    'the Everything deployment to run',
    async () => {
      const status = await api.get<DeploymentDto>(Paths.deploymentStatus(deployment.id));
      if (status.status === 'failed' || status.status === 'crashed')
        throw new GiveUp(`the Everything deployment ${status.status}: ${status.lastError ?? ''}`);
      return status.status === 'running' ? status : undefined;
    },
    60_000,
  );
  if (running.serverId === null) throw new Error('the running Everything deployment has no server');
  const server = await api.get<ServerDto>(Paths.server(workspaceId, running.serverId));
  return { serverId: server.id, name: server.name, proxyUrl: server.proxyUrl, deploymentId: running.id };
}

/** Registers Demo Ops (a remote Streamable HTTP server) unless the workspace has it already. */
export async function registerOpsServer(api: DemoApi, workspaceId: string, url: string): Promise<DemoServer> {
  const name = 'Demo Ops';
  const servers = await api.get<ServerDto[]>(Paths.servers(workspaceId));
  let server = servers.find((s) => s.name === name);
  if (server && server.url !== url)
    server = await api.request<ServerDto>('PUT', Paths.server(workspaceId, server.id), { url });
  server ??= await api.post<ServerDto>(Paths.servers(workspaceId), {
    url,
    name,
    description: 'Customers, docs and tickets: the demo agent’s second server (shipped in src/demo)',
  });
  return { serverId: server.id, name: server.name, proxyUrl: server.proxyUrl };
}

async function schemaNamed(api: DemoApi, workspaceId: string, serverId: string, name: string): Promise<SchemaDto> {
  return waitUntil(`the ${name} schema to be discovered`, async () => {
    const { schemas } = await api.get<SchemaListResult>(`${Paths.schemas(workspaceId, serverId)}?limit=100`);
    return schemas.find((s) => s.kind === 'tool' && s.name === name);
  });
}

/**
 * The schema story of Demo Ops:
 * 1. a version of `lookup_customer` written by hand (the team documents the tool better), a patch from v1;
 * 2. the server then changes two tools: `lookup_customer` to exactly that text (no drift), and
 *    `create_ticket` to a rug-pull description → a new version with its patch; the risk check
 *    finds a credential path in it, holds it (v1 stays pinned) and raises a `tool_risk` alert;
 * 3. had it not been held, `create_ticket` is rolled back to v1: the proxy serves the trusted definition again.
 */
export async function showSchemaHistory(
  api: DemoApi,
  workspaceId: string,
  ops: DemoServer,
  opsServer: DemoOpsServer,
): Promise<void> {
  const lookup = await schemaNamed(api, workspaceId, ops.serverId, 'lookup_customer');
  const ticket = await schemaNamed(api, workspaceId, ops.serverId, 'create_ticket');
  const versionsPath = (schemaId: string) => `${Paths.schemas(workspaceId, ops.serverId)}/${schemaId}/versions`;
  if (lookup.currentVersion === 1) {
    await api.post(versionsPath(lookup.id), {
      definition: { ...lookup.definition, description: LOOKUP_CUSTOMER_DESCRIPTIONS.after },
    });
  }
  opsServer.changeDefinitions();
  // Discovery now, rather than waiting for an agent's tools/list to pass through the proxy.
  await api.post(`${Paths.schemas(workspaceId, ops.serverId)}/discover`);
  const drifted = await api.get<SchemaDto>(`${Paths.schemas(workspaceId, ops.serverId)}/${ticket.id}`);
  if (drifted.currentVersion > 1 && drifted.pinnedVersion === null) {
    await api.post(`${Paths.schemas(workspaceId, ops.serverId)}/${ticket.id}/rollback`, { version: 1 });
  }
}

/** Demo Ops goes offline and comes back: a "Server Offline" then a "Server Online" notification. */
export async function showOutage(
  api: DemoApi,
  workspaceId: string,
  ops: DemoServer,
  opsServer: DemoOpsServer,
  downMs: number,
): Promise<void> {
  await opsServer.goOffline();
  await api.post(Paths.serverHealth(workspaceId, ops.serverId));
  await new Promise((resolve) => setTimeout(resolve, downMs));
  await opsServer.comeBack();
  await api.post(Paths.serverHealth(workspaceId, ops.serverId));
}

/** Today's recorded tool calls (the dashboard's number). */
export async function recordedCallsToday(api: DemoApi, workspaceId: string): Promise<number> {
  const overview = await api.get<{ toolCalls: { today: number } }>(Paths.dashboardOverview(workspaceId));
  return overview.toolCalls.today;
}
