import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';

// An admin may point Toolscope at any address it can reach (a webhook, an OTLP endpoint, a tool
// server). What comes back must not turn that into a reader of internal services: no foreign body
// in any answer, and one text for a closed port and for an open port that does not speak HTTP
// (docs/security.md, "Outbound answers").
jest.setTimeout(120_000);

const SECRET_PAGE = 'INTERNAL-SECRET-4750 admin-password=hunter2';

describe(`outbound answers reveal nothing of the destination (${engineName})`, () => {
  let t: TestApp;
  let admin: TestAccount;
  let internalService: http.Server;
  let notHttp: net.Server;
  const notHttpSockets = new Set<net.Socket>();
  let internalUrl: string;
  let closedUrl: string;
  let notHttpUrl: string;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await registerAccount(t.app);
    // An internal web service whose error page holds a secret, standing in for what the attacker wants read.
    internalService = http.createServer((_req, res) =>
      res.writeHead(403, { 'content-type': 'text/plain' }).end(SECRET_PAGE),
    );
    await new Promise<void>((resolve) => internalService.listen(0, '127.0.0.1', resolve));
    internalUrl = `http://127.0.0.1:${(internalService.address() as AddressInfo).port}/`;
    // An open port that speaks something else (an SSH banner).
    notHttp = net.createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'));
    notHttp.on('connection', (socket) => notHttpSockets.add(socket));
    await new Promise<void>((resolve) => notHttp.listen(0, '127.0.0.1', resolve));
    notHttpUrl = `http://127.0.0.1:${(notHttp.address() as AddressInfo).port}/`;
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    await t.app.schemaDiscovery.idle();
    await t.close();
    internalService.closeAllConnections(); // the app's keep-alive pool would hold close() open
    await new Promise((resolve) => internalService.close(resolve));
    for (const socket of notHttpSockets) socket.destroy();
    await new Promise((resolve) => notHttp.close(resolve));
  });

  const ws = () => `/api/v1/workspaces/${admin.workspaceId}`;
  const post = (url: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url, headers: bearer(admin.accessToken), payload });

  const webhookTest = async (url: string) =>
    (await post(`${ws()}/integrations/test`, { kind: 'webhook', config: { url } })).json();
  const exporterTest = async (endpoint: string) => {
    const created = await post(`${ws()}/telemetry/exporters`, {
      name: `e${Date.now()}`,
      endpoint,
      signals: ['traces'],
    });
    expect(created.statusCode).toBe(201);
    return (await post(`${ws()}/telemetry/exporters/${created.json().id}/test`)).json();
  };
  const healthCheck = async (url: string) => {
    const created = await post(`${ws()}/servers`, { name: `s${Date.now()}`, url: `${url}mcp` });
    expect(created.statusCode).toBe(201);
    return (await post(`${ws()}/servers/${created.json().id}/health`)).json();
  };

  it('shows the status class of an error answer and a fixed reason, never its body', async () => {
    const answers = {
      webhook: await webhookTest(internalUrl),
      exporter: await exporterTest(internalUrl),
      health: await healthCheck(internalUrl),
    };
    expect(answers.webhook).toMatchObject({ ok: false, error: 'HTTP 4xx: refused by the destination' });
    expect(answers.exporter).toMatchObject({ ok: false, message: 'HTTP 4xx: refused by the destination' });
    expect(answers.health).toMatchObject({ healthy: false, error: 'HTTP 4xx: refused by the destination' });
    expect(JSON.stringify(answers)).not.toMatch(/INTERNAL-SECRET|hunter2/);
  });

  it('answers alike for a closed port and an open port that does not speak HTTP', async () => {
    const closed = [await webhookTest(closedUrl), await exporterTest(closedUrl), await healthCheck(closedUrl)];
    const open = [await webhookTest(notHttpUrl), await exporterTest(notHttpUrl), await healthCheck(notHttpUrl)];
    const texts = (answers: Record<string, unknown>[]) => answers.map((a) => a.error ?? a.message);
    expect(texts(closed)).toEqual(texts(open));
    expect(JSON.stringify(open)).not.toMatch(/SSH|ECONNREFUSED/);
  });
});
