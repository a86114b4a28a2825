import type { ServerDto } from '../../../../src/contract/servers';
import { bearer, registerAccount } from '../../helpers/accounts';
import type { ProxyTestApp } from './proxyApp';

/** Another tenant on the same proxy: its own account and workspace, one server registered. */
export async function registerInSecondWorkspace(
  t: ProxyTestApp,
  url: string,
  extra: Record<string, unknown> = {},
): Promise<{ server: ServerDto; proxyUrl: URL }> {
  const other = await registerAccount(t.app, {
    email: `other-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${other.workspaceId}/servers`,
    headers: bearer(other.accessToken),
    payload: { url, name: 'other tenant', ...extra },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const server = res.json<ServerDto>();
  return { server, proxyUrl: new URL(new URL(server.proxyUrl).pathname, t.base) };
}
