// Starts the built Toolscope three times (PGlite opens in seconds, programs start in seconds).
jest.setTimeout(240_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DeploymentConfigDto, DeploymentDto } from '../../src/contract/deployments';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { stopEverythingStarted } from './helpers/processRegistry';
import { processesWithMarker, waitFor } from '../server/deployments/support/processes';

// Toolscope's own life and its children's (issue 21): SIGTERM stops every program before Toolscope
// exits; a kill -9 of Toolscope leaves no program behind either (the watchdog sees its parent
// go); and a deployment that was running starts again when Toolscope starts on the same data.
// The program is the attacker's of issue 30: it leaves a detached grandchild in a session of its
// own that ignores SIGTERM, beside server-everything — the sandbox's PID namespace takes it too.
const ORPHAN_MAKER = path.resolve(__dirname, '../fixtures/deployments/orphan-maker.js');
/** The watchdog, bwrap and its PID namespace's init, the program, server-everything and the grandchild. */
const PROCESSES = 6;
/** An answer of the API: its status, and its body read as the caller expects it. */
interface Answer<T> {
  status: number;
  body: T;
}

describe('deployed programs live and die with Toolscope', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-deploy-life-'));
  const marker = `TOOLSCOPE_LIFE_MARKER_${randomUUID().replace(/-/g, '')}`;
  const env = {
    TOOLSCOPE_DEPLOYMENTS: 'on',
    TOOLSCOPE_SECRET: randomBytes(48).toString('base64url'),
    TOOLSCOPE_DEPLOYMENT_STOP_GRACE_MS: '2000',
    TOOLSCOPE_CLIENT_DIR: '',
    // The program is a file of the test's: the sandbox shows it read-only, as an operator would.
    TOOLSCOPE_SANDBOX_READONLY_PATHS: path.dirname(ORPHAN_MAKER),
  };
  let app: BuiltApp;
  let token: string;
  let deploymentId: string;

  afterAll(async () => {
    await stopEverythingStarted();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function api<T>(method: string, url: string, body?: unknown): Promise<Answer<T>> {
    const res = await fetch(`${app.baseUrl}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  const statusOf = async () => (await api<DeploymentDto>('GET', `/api/v1/deployments/${deploymentId}/status`)).body;
  const running = async () => {
    await waitFor(
      'the deployment to run',
      async () => ((await statusOf()).status === 'running' ? true : undefined),
      60_000,
      200,
    ).catch(async (error: unknown) => {
      const logs = await api<{ lines: { text: string }[] }>('GET', `/api/v1/deployments/${deploymentId}/logs`);
      throw new Error(
        `${String(error)}: ${JSON.stringify(await statusOf())}\n${logs.body.lines.map((l) => l.text).join('\n')}`,
      );
    });
    await waitFor(
      'the program, server-everything and the detached grandchild',
      () => (processesWithMarker(marker).length >= PROCESSES ? true : undefined),
      60_000,
      100,
    );
  };

  it('runs a deployment of the built app', async () => {
    app = await startBuiltApp(env, 90_000, { dataDir });
    const password = 'correct horse battery staple';
    const registered = await api<{ accessToken: string }>('POST', '/api/v1/auth/register', {
      email: `life-${Date.now()}@example.com`,
      password,
      passwordConfirmation: password,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    token = registered.body.accessToken;
    const workspaces = await api<{ workspaces: { id: string }[] }>('GET', '/api/v1/workspaces');
    const config = await api<DeploymentConfigDto>('POST', '/api/v1/deployments/configs', {
      workspace_id: workspaces.body.workspaces[0].id,
      name: 'everything',
      command: 'node',
      args: [ORPHAN_MAKER],
      env: { [marker]: '1' },
    });
    expect(config.status).toBe(201);
    const deployed = await api<DeploymentDto>('POST', `/api/v1/deployments/configs/${config.body.id}/deploy`);
    expect(deployed.status).toBe(201);
    deploymentId = deployed.body.id;
    await running();
    expect(processesWithMarker(marker)).toHaveLength(PROCESSES);
  });

  it('stops every program, the detached grandchild too, when Toolscope gets SIGTERM, before it exits', async () => {
    await app.stop();
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it('starts the deployment again when Toolscope starts', async () => {
    app = await startBuiltApp(env, 90_000, { dataDir });
    await running();
    expect(processesWithMarker(marker)).toHaveLength(PROCESSES);
  });

  it('leaves no program and no grandchild behind after a kill -9 of Toolscope, and a restart runs it again', async () => {
    process.kill(app.pid, 'SIGKILL');
    await waitFor(
      'every program to be gone',
      () => (processesWithMarker(marker).length === 0 ? true : undefined),
      10_000,
      50,
    );
    // And it comes back once more with the next start (the lease of the dead instance was its own).
    app = await startBuiltApp(env, 90_000, { dataDir });
    await running();
    const stopped = await api<DeploymentDto>('DELETE', `/api/v1/deployments/${deploymentId}`);
    expect(stopped.body.status).toBe('stopped');
    expect(processesWithMarker(marker)).toEqual([]);
  });
});
