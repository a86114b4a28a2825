import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../../helpers/testApp';
import type { TestDatabase } from '../../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../../helpers/accounts';
import type { Config } from '../../../../src/server/config';
import type { ServerDto } from '../../../../src/contract/servers';

// The whole app listening on 127.0.0.1 (the SDK clients need real HTTP) with one signed-up user.
export interface ProxyTestApp extends TestApp {
  base: string;
  account: TestAccount;
  /** Registers an upstream through the API; returns the DTO and the proxy URL on this listener. */
  register(url: string, extra?: Record<string, unknown>): Promise<{ server: ServerDto; proxyUrl: URL }>;
}

export async function startProxyApp(overrides: Partial<Config> = {}, database?: TestDatabase): Promise<ProxyTestApp> {
  const t = await buildTestApp({ healthIntervalMs: 3_600_000, ...overrides }, database);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const account = await registerAccount(t.app);
  return {
    ...t,
    close: async () => {
      // Test clients (undici, the SDK's reconnecting transports) may leave or open connections that
      // carry no request; Node counts those as busy until its headers timeout, which would hold
      // app.close() for a minute. Every test is over here, so every connection can go.
      const reaper = setInterval(() => t.app.server.closeAllConnections(), 20);
      t.app.server.closeAllConnections();
      try {
        await t.close();
      } finally {
        clearInterval(reaper);
      }
    },
    base,
    account,
    register: async (url, extra = {}) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${account.workspaceId}/servers`,
        headers: bearer(account.accessToken),
        payload: { url, name: 'upstream', ...extra },
      });
      if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
      const server = res.json<ServerDto>();
      return { server, proxyUrl: new URL(new URL(server.proxyUrl).pathname, base) };
    },
  };
}
