import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page } from 'playwright-core';
import { Paths } from '../../src/contract/routes';
import { startEverything, type EverythingServer } from '../server/proxy/support/everything';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 5's journey in Debian's Chromium against the built app and a real server-everything:
// register → onboarding → add the server → schemas discovered → an MCP client calls a tool
// through the proxy URL read from the page → the overview moves live → the upstream stops →
// 'Server Offline'. Screenshots of /servers, /schema-studio and /dashboard go to
// TOOLSCOPE_E2E_SCREENSHOTS when set (docs/screenshots holds them).
const describeInBrowser = describeWhenChromium();

jest.setTimeout(240_000);

describeInBrowser('servers journey', () => {
  let upstream: EverythingServer;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  let proxyUrl = '';
  let upstreamStopped = false;
  let deadPort: net.Server | undefined;
  const problems: string[] = [];

  beforeAll(async () => {
    upstream = await startEverything();
    // A 1 s health interval makes the offline transition show within seconds.
    app = await startBuiltApp({ TOOLSCOPE_HEALTH_INTERVAL_MS: '1000', TOOLSCOPE_FLAGS: 'show_schema_studio=true' });
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    recordPageProblems(page, problems);
    // Every toast the page shows, as it appears: a toast lasts 5 s and the next one replaces it
    // (SPEC), so on a starved machine a locator may poll past one that was shown.
    await page.addInitScript(() => {
      const seen: string[] = [];
      // Per element: a toast is a new element each time, so a second 'Server Offline' counts again.
      const recorded = new WeakMap<Element, string>();
      (window as unknown as { toastsSeen: string[] }).toastsSeen = seen;
      // The header dot's states in order, for the failure message: was the stream up throughout?
      const liveSeen: string[] = [];
      let lastLive: string | null | undefined;
      (window as unknown as { liveSeen: string[] }).liveSeen = liveSeen;
      new MutationObserver(() => {
        const live = document.querySelector('[aria-label^="Live: "]')?.getAttribute('data-status');
        if (live && live !== lastLive) liveSeen.push(`${live} at ${new Date().toISOString()}`);
        lastLive = live;
        for (const element of document.querySelectorAll<HTMLElement>('[role=alert], [role=status]')) {
          const text = element.innerText.trim();
          if (text && recorded.get(element) !== text) {
            recorded.set(element, text);
            seen.push(text);
          }
        }
      }).observe(document, {
        childList: true,
        subtree: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['data-status'],
      });
    });
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    // The journey stops the upstream itself; a second stop would wait for an exit already past.
    if (!upstreamStopped) await (upstream as EverythingServer | undefined)?.stop();
    await new Promise((resolve) => (deadPort ? deadPort.close(resolve) : resolve(undefined)));
  });

  const shoot = (name: string) => screenshotIfAsked(page, name);
  // Destructive toasts are alerts, the others status messages.
  const toast = (title: string) => page.locator('[role=alert], [role=status]').filter({ hasText: title });
  const stat = (label: string) => page.getByTestId(`stat-${label}`);

  it('registers and meets the onboarding dialog, which leads to /servers', async () => {
    await page.goto(`${app.baseUrl}/register`);
    await page.getByLabel('First name').fill('Margaret');
    await page.getByLabel('Last name').fill('Hamilton');
    await page.getByLabel('Email').fill(`margaret+${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: false }).first().fill('apollo-guidance-1969');
    await page.getByLabel('Confirm password').fill('apollo-guidance-1969');
    await page.getByRole('button', { name: 'Create account' }).click();

    const onboarding = page.getByRole('dialog');
    await onboarding.getByText('Welcome to Toolscope').waitFor();
    await onboarding.getByRole('button', { name: 'Get Started' }).click();
    await onboarding.getByRole('button', { name: 'Connect Tool Server' }).click();
    await page.waitForURL(/\/servers$/);
    await page.getByRole('main').getByRole('heading', { name: 'Tool Servers', level: 1 }).waitFor();
    await page.getByRole('status', { name: 'Live: connected' }).waitFor();
  });

  it("adds the server, discovers its schemas ('Schemas discovered') and shows its proxy URL", async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add tool server' });
    await dialog.getByLabel('Server URL').fill(upstream.url);
    await dialog.getByLabel('Name', { exact: false }).first().fill('Everything');
    await dialog
      .getByLabel('Description')
      .fill('Reference MCP server: echo, sums, long-running operations, sampling and resources');
    await dialog.getByRole('button', { name: 'Add server' }).click();

    const card = page.getByRole('article', { name: 'Everything' });
    await card.waitFor();
    await toast('Schemas discovered').waitFor({ timeout: 40_000 });
    expect(await toast('Schemas discovered').innerText()).toMatch(/Found \d+ schema\(s\) for this server/);
    await card.getByTestId('server-status').filter({ hasText: 'Online' }).waitFor({ timeout: 20_000 });

    proxyUrl = (await card.getByTestId('proxy-url').innerText()).trim();
    expect(proxyUrl).toMatch(new RegExp(`^${app.baseUrl.replace(/[.]/g, '\\.')}/mcp/\\S+$`));
    await card.getByRole('button', { name: 'Copy proxy URL' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(proxyUrl);
    await card.getByRole('button', { name: 'Connect a client' }).click();
    await card.getByRole('tab', { name: 'Claude Code' }).click();
    expect(await card.getByLabel('Claude Code configuration', { exact: true }).innerText()).toBe(
      `claude mcp add --transport http everything ${proxyUrl}`,
    );
    await page.mouse.move(0, 0);
    // Let the configuration panel finish opening before the picture.
    await page.waitForTimeout(500);
    await shoot('servers');

    await card.getByRole('button', { name: 'Check health now' }).click();
    await toast('Server is healthy').waitFor();
    expect(await toast('Server is healthy').innerText()).toMatch(/Everything answered in \d+ ms/);
  });

  it('shows the discovered tools in Schema Studio, and a drift from the approved definition', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schema Studio' }).click();
    const list = page.getByRole('list', { name: 'Schemas' });
    await list.getByText('echo', { exact: true }).waitFor();
    await page.getByRole('list', { name: 'Version history' }).waitFor();

    // The team approves a stricter echo (a version written by hand); the upstream still serves
    // the old one, so the next discovery reports it as drift.
    const { token, workspaceId } = await page.evaluate(() => ({
      token: localStorage.getItem('access_token'),
      workspaceId: localStorage.getItem('toolscope.current_workspace_id'),
    }));
    const call = async (pathname: string, init: RequestInit = {}) => {
      const response = await fetch(`${app.baseUrl}${pathname}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      });
      if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const [server] = (await call(Paths.servers(workspaceId!))) as { id: string }[];
    const { schemas } = (await call(Paths.schemas(workspaceId!, server.id))) as {
      schemas: { id: string; name: string; definition: Record<string, unknown> }[];
    };
    const echo = schemas.find((schema) => schema.name === 'echo')!;
    const input = echo.definition.inputSchema as { properties: { message: Record<string, unknown> } };
    const approved = {
      ...echo.definition,
      description: 'Echoes back the input string (at most 200 characters)',
      inputSchema: {
        ...input,
        properties: { ...input.properties, message: { ...input.properties.message, maxLength: 200 } },
      },
    };
    await call(`${Paths.schemas(workspaceId!, server.id)}/${echo.id}/versions`, {
      method: 'POST',
      body: JSON.stringify({ definition: approved }),
    });

    await page.getByRole('button', { name: 'Discover now' }).click();
    await toast('Discovery finished').waitFor();
    await list.getByRole('button', { name: /echo.*Drift/ }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Schema drift detected' });
    await alert.waitFor();
    await alert.getByLabel('Changed fields').getByText('description').waitFor();
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await shoot('schema-studio');
  });

  it('counts a tool call made through the proxy on the overview without a reload', async () => {
    await page.goto(`${app.baseUrl}/dashboard`);
    await stat('Tool calls today').waitFor();
    await page.getByRole('status', { name: 'Live: connected' }).waitFor();
    const before = Number(await stat('Tool calls today').innerText());

    const client = new Client({ name: 'journey-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxyUrl)));
    const result = await client.callTool({ name: 'echo', arguments: { message: 'traced by Toolscope' } });
    expect(JSON.stringify(result.content)).toContain('traced by Toolscope');
    await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    await client.close();

    await page.waitForFunction(
      ([label, expected]) =>
        Number(document.querySelector(`[data-testid="stat-${label}"]`)?.textContent ?? '0') >= expected,
      ['Tool calls today', before + 2] as const,
      { timeout: 20_000 },
    );
    await page.getByRole('list', { name: 'Latest tool calls' }).getByText('echo', { exact: true }).waitFor();
    await page.mouse.move(0, 0);
    await shoot('dashboard');
  });

  it('keeps "checked … ago" current while the health checks find nothing new (issue 14 item 6)', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tool Servers' }).click();
    const card = page.getByRole('article', { name: 'Everything' });
    await card.getByTestId('server-status').filter({ hasText: 'Online' }).waitFor();
    // Probes run every second and change nothing: only server_checked moves the label on. Without
    // it the label would age with the page (it once read "checked 5 minutes ago").
    await page.waitForTimeout(8_000);
    await expect(card.innerText()).resolves.toMatch(/checked (now|[1-5] seconds? ago)/);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByTestId('server-status').first().waitFor();
  });

  it("raises 'Server Offline' when the upstream stops answering", async () => {
    // The transition under test starts from a server known online: on a starved machine a probe
    // can time out and flap it offline (and back) before this test begins.
    await page.getByTestId('server-status').filter({ hasText: 'Online' }).first().waitFor({ timeout: 60_000 });
    const offlineToasts = () =>
      page.evaluate(() =>
        (window as unknown as { toastsSeen: string[] }).toastsSeen.filter((text) => text.includes('Server Offline')),
      );
    const shownBefore = (await offlineToasts()).length;
    await upstream.stop();
    const stoppedAt = new Date().toISOString();
    upstreamStopped = true;
    // The freed port is held by a listener that drops every connection: in a full run another
    // test's MCP server could otherwise be given the same port, answer the health probe, and keep
    // this server "Online" (the failure runs 4–6 and 8 of the suite saw, with no toast at all).
    const holder = net.createServer((socket) => socket.destroy());
    deadPort = await new Promise<net.Server | undefined>((resolve) =>
      holder
        .once('error', (error) => {
          // Taken already in the moment between: the wait below says what the page shows.
          console.warn(`could not hold the stopped upstream's port: ${String(error)}`);
          resolve(undefined);
        })
        .listen(Number(new URL(upstream.url).port), '127.0.0.1', () => resolve(holder)),
    );
    await page
      .waitForFunction(
        (before) =>
          (window as unknown as { toastsSeen: string[] }).toastsSeen.filter((text) => text.includes('Server Offline'))
            .length > before,
        shownBefore,
        { timeout: 60_000, polling: 100 },
      )
      .catch(async (error: unknown) => {
        // Seen only in full runs under load: say what the page showed instead, for whoever looks next.
        const shown = await page.locator('[role=alert], [role=status]').allInnerTexts();
        const statuses = await page.getByTestId('server-status').allInnerTexts();
        const liveStates = await page.evaluate(() => (window as unknown as { liveSeen: string[] }).liveSeen);
        // After a reload the page shows what the server holds: "Offline" there means the live update
        // did not reach the page; "Online" that the health monitor never saw the upstream go.
        await page.reload();
        await page
          .getByTestId('server-status')
          .first()
          .waitFor({ timeout: 20_000 })
          .catch(() => undefined);
        const reloaded = await page.getByTestId('server-status').allInnerTexts();
        throw new Error(
          `${String(error)}\ntoasts and alerts on the page: ${JSON.stringify(shown)}\nserver statuses: ${JSON.stringify(statuses)}; after a reload: ${JSON.stringify(reloaded)}\nlive stream states: ${JSON.stringify(liveStates)}; upstream stopped at ${stoppedAt}\nthe app's warnings and errors:\n${app
            .output()
            .split('\n')
            .filter((line) => /"level":(40|50|60)/.test(line))
            .slice(-20)
            .join('\n')}`,
        );
      });
    expect((await offlineToasts()).at(-1)).toContain('Everything is not responding to health checks');
    // The overview's server list turns offline with it, without a reload.
    await page.getByTestId('server-status').filter({ hasText: 'Offline' }).waitFor();
    // Issue 14 item 3: the card still shows the proxy URL of the REST answer after the live
    // update (which once rebuilt it from another host: localhost instead of 127.0.0.1).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tool Servers' }).click();
    const card = page.getByRole('article', { name: 'Everything' });
    await card.getByTestId('server-status').filter({ hasText: 'Offline' }).waitFor();
    expect((await card.getByTestId('proxy-url').innerText()).trim()).toBe(proxyUrl);
    expect(problems).toEqual([]);
  });
});
