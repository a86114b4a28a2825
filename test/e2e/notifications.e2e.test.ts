import type { BrowserContext, Page } from 'playwright-core';
import { StorageKeys } from '../../src/contract/constants';
import type { LoginResult } from '../../src/contract/auth';
import type { NotificationDto } from '../../src/contract/notifications';
import { Paths } from '../../src/contract/routes';
import { startFixtureMcpServer, type FixtureMcpServer } from '../server/monitor/support/fixtureMcpServer';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium } from './helpers/journey';

// Issue 7's journey: stop a registered upstream → a tool_server_status notification appears in
// the bell without a reload → clicking it marks it read and takes the app to its actionUrl.
const describeInBrowser = describeWhenChromium();
// Starting the built app and Chromium, and waiting for a health check and a 15 s poll.
jest.setTimeout(240_000);

/** Re-evaluates `check` until it holds (the health monitor and the bell's polls run on their own clocks). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describeInBrowser('notifications journey', () => {
  let upstream: FixtureMcpServer;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  let tokens: LoginResult;
  let workspaceId: string;
  let serverId: string;

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens.accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    upstream = await startFixtureMcpServer();
    app = await startBuiltApp({ TOOLSCOPE_HEALTH_INTERVAL_MS: '500' });
    const password = 'notify-me-2026';
    const registered = await fetch(`${app.baseUrl}${Paths.register}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `ops+${Date.now()}@example.com`,
        password,
        passwordConfirmation: password,
        firstName: 'Olive',
        lastName: 'Ops',
      }),
    });
    tokens = (await registered.json()) as LoginResult;
    const list = await api<{ workspaces: { id: string }[] } | { id: string }[]>('GET', Paths.workspaces);
    workspaceId = (Array.isArray(list) ? list : list.workspaces)[0].id;
    serverId = (
      await api<{ id: string }>('POST', Paths.servers(workspaceId), { url: upstream.url, name: 'Calculator' })
    ).id;
    await eventually(
      async () =>
        (await api<{ status: string }>('GET', Paths.server(workspaceId, serverId))).status === 'online'
          ? true
          : undefined,
      'the server to be online',
    );

    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript(
      ([keys, access, refresh, ws]) => {
        if (!localStorage.getItem(keys.accessToken)) {
          localStorage.setItem(keys.accessToken, access);
          localStorage.setItem(keys.refreshToken, refresh);
          localStorage.setItem(keys.currentWorkspace, ws);
        }
      },
      [StorageKeys, tokens.accessToken, tokens.refreshToken, workspaceId] as const,
    );
    page = await context.newPage();
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await (upstream as FixtureMcpServer | undefined)?.stop();
  });

  it('shows the server going offline in the bell without a reload, and opens it', async () => {
    await page.goto(`${app.baseUrl}/dashboard`);
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.waitFor();
    expect(await bell.getAttribute('aria-label')).toBe('Notifications');

    await upstream.stop();
    // The health monitor notices within a check; the bell's unread poll (15 s) shows it.
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor({ timeout: 40_000 });

    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByTestId('notification-item').filter({ hasText: 'Server Offline' });
    await item.waitFor();
    expect(await item.getAttribute('data-unread')).toBe('true');
    expect(await item.textContent()).toContain('Calculator is not responding to health checks');

    await item.getByRole('button').first().click();
    await page.waitForURL((url) => url.pathname === '/servers' && url.searchParams.get('serverId') === serverId);

    const { notifications } = await api<{ notifications: NotificationDto[] }>(
      'GET',
      `${Paths.notifications}?workspaceId=${workspaceId}`,
    );
    const offline = notifications.find((n) => n.type === 'tool_server_status' && n.metadata.status === 'offline');
    expect(offline).toMatchObject({ isRead: true, actionUrl: `/servers?serverId=${serverId}` });
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
  });
});
