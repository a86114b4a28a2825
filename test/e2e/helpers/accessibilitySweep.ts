import AxeBuilder from '@axe-core/playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page } from 'playwright-core';
import { FLAG_NAMES } from '../../../src/contract/flags';
import { startEverything, type EverythingServer } from '../../server/proxy/support/everything';
import { startBuiltApp, type BuiltApp } from './builtApp';
import { launchChromium, type RunningBrowser } from './chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems } from './journey';
import { layoutProblems } from './pageLayout';
import { screenshotIfAsked } from './screenshots';

// The accessibility sweep (issue 40): every route of the SPA, signed out and signed in, with real
// data behind it (a server-everything upstream and tool calls through the proxy), checked by
// axe-core at one viewport: no serious or critical violation may stand. The desktop and phone
// sweeps are two test files, so Jest's two workers run them side by side.
export const VIEWPORTS = {
  desktop: { name: 'desktop', width: 1440, height: 900 },
  phone: { name: 'phone', width: 390, height: 844 },
} as const;
type Viewport = (typeof VIEWPORTS)[keyof typeof VIEWPORTS];

const PUBLIC_ROUTES = ['/', '/login', '/register', '/forgot-password', '/reset-password?token=not-a-real-token'];
const SIGNED_IN_ROUTES = [
  '/home',
  '/dashboard',
  '/servers',
  '/analytics',
  '/members',
  '/settings',
  '/activity-stream',
  '/sessions',
  '/thought-tracing',
  '/schema-studio',
  '/cost-analytics',
  '/cost-attribution',
  '/performance',
  '/integrations',
  '/alert-rules',
  '/marketplace',
  '/no-such-page',
];

/** A file name for a route: /workspace/<id>/settings?tab=security → workspace-settings-security. */
function screenName(route: string): string {
  const [path] = route.split('?');
  const tab = new URLSearchParams(route.includes('?') ? route.slice(route.indexOf('?') + 1) : '').get('tab');
  const parts = path
    .split('/')
    .filter(Boolean)
    // An id last names one record: /sessions/<id> is "sessions-detail", beside the list's
    // "sessions"; an id inside a path is left out (/workspace/<id>/settings: "workspace-settings").
    .map((part, i, all) => (/^[0-9a-f-]{36}$/.test(part) ? (i === all.length - 1 ? 'detail' : '') : part))
    .filter(Boolean)
    .map((part) => part.replace(/[^a-z0-9-]/gi, '-'));
  return [...parts, ...(tab ? [tab] : [])].join('-') || 'home';
}

interface Finding {
  route: string;
  viewport: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Every flag a user can meet, on (so every flagged screen is swept), but the first-run modal. */
const ALL_SCREENS_FLAGS = FLAG_NAMES.filter((name) => name.startsWith('show_') && name !== 'show_onboarding_modal')
  .map((name) => `${name}=true`)
  .join(',');

/** Declares the sweep at `viewport`; `more` adds journeys that share its app and data. */
export function describeAccessibilitySweep(
  viewport: Viewport,
  more?: (sweep: { signedInPage: () => Promise<Page>; visit: (page: Page, route: string) => Promise<void> }) => void,
): void {
  const describeInBrowser = describeWhenChromium();
  jest.setTimeout(600_000);
  describeInBrowser(`accessibility of every route (${viewport.name})`, () => {
    let upstream: EverythingServer;
    let app: BuiltApp;
    let chromium: RunningBrowser;
    const contexts: BrowserContext[] = [];
    // Unset until the account is registered (the first call is made without them).
    let tokens: { accessToken: string; refreshToken: string; workspaceId: string } | undefined;
    const email = `grace+${Date.now()}@example.com`;
    const password = 'grace-hopper-1906';
    const dataRoutes: string[] = [];
    // Tabs the layout sweep opens too (issue 38: the Security tab once made the page 721 px wide).
    const tabRoutes: string[] = [];

    const api = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${app.baseUrl}${url}`, {
        method,
        headers: {
          'Content-Type': 'application/json',
          ...(tokens ? { Authorization: `Bearer ${tokens.accessToken}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };

    beforeAll(async () => {
      upstream = await startEverything();
      app = await startBuiltApp({ TOOLSCOPE_FLAGS: ALL_SCREENS_FLAGS }, 360_000);
      const registered = await api<{ accessToken: string; refreshToken: string }>('POST', '/api/v1/auth/register', {
        email,
        password,
        passwordConfirmation: password,
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      tokens = { ...registered, workspaceId: '' };
      const { workspaces } = await api<{ workspaces: { id: string }[] }>('GET', '/api/v1/workspaces');
      tokens.workspaceId = workspaces[0].id;
      const workspaceId = tokens.workspaceId;
      const server = await api<{ proxyUrl: string }>('POST', `/api/v1/workspaces/${workspaceId}/servers`, {
        url: upstream.url,
        name: 'Everything',
        description: 'The reference server',
      });

      // Real traffic, so tables, charts and cards are drawn with rows in them.
      const client = new Client({ name: 'a11y-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.proxyUrl)));
      for (let i = 0; i < 5; i++) await client.callTool({ name: 'echo', arguments: { message: `hello ${i}` } });
      await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
      await client.close();

      const sessions = await waitForSessions();
      dataRoutes.push(
        `/sessions/${sessions[0].id}`,
        `/workspace/${workspaceId}/settings`,
        `/workspace/${workspaceId}/settings?tab=redaction`,
      );
      await api('POST', `/api/v1/workspaces/${workspaceId}/platform/keys`, { name: 'Layout sweep agent' });
      await api('POST', `/api/v1/workspaces/${workspaceId}/keys`, {
        name: 'UPSTREAM_TOKEN',
        value: 'not-a-real-secret',
        description: 'A key with a description long enough to wrap on a phone',
        allowedHosts: ['api.example.com'],
      });
      for (const tab of ['members', 'notifications', 'security', 'telemetry', 'integrations', 'audit']) {
        tabRoutes.push(`/workspace/${workspaceId}/settings?tab=${tab}`);
      }
      for (const tab of ['preferences', 'security', 'billing']) tabRoutes.push(`/settings?tab=${tab}`);
      const catalog = await api<{ servers: { slug: string }[] }>('GET', '/api/v1/marketplace/servers');
      if (catalog.servers.length) dataRoutes.push(`/marketplace/${catalog.servers[0].slug}`);

      chromium = await launchChromium();
    });

    afterAll(async () => {
      for (const context of contexts) await context.close().catch(() => undefined);
      await closeBrowserAndApp(undefined, chromium, app);
      await upstream.stop();
    });

    async function waitForSessions(): Promise<{ id: string }[]> {
      // The recorder writes in batches: wait for the state (a stored session), not for a duration.
      for (;;) {
        const list = await api<{ sessions: { id: string }[] }>(
          'GET',
          `/api/v1/workspaces/${tokens!.workspaceId}/sessions`,
        );
        if (list.sessions.length) return list.sessions;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    async function newPage(signedIn: boolean): Promise<Page> {
      const context = await chromium.browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
      });
      contexts.push(context);
      if (signedIn) {
        // A sign-in of its own per page: pages sharing one refresh token signed each other out once
        // the sweep outlived the access token's refresh point (a rotated token reused ends the family).
        const own = await api<{ accessToken: string; refreshToken: string }>('POST', '/api/v1/auth/login', {
          email,
          password,
        });
        await context.addInitScript(
          (t) => {
            localStorage.setItem('access_token', t.accessToken);
            localStorage.setItem('refresh_token', t.refreshToken);
            localStorage.setItem('toolscope.current_workspace_id', t.workspaceId);
          },
          { ...own, workspaceId: tokens!.workspaceId },
        );
      }
      return context.newPage();
    }

    /** Loads a route and waits until it has drawn its data: no skeleton left on the page. */
    async function visit(page: Page, route: string): Promise<void> {
      // Not the 'load' event: on a loaded CI machine a page's last resource took more than 30 s once,
      // and what the sweep needs is the app drawn with its data, waited for below.
      await page.goto(`${app.baseUrl}${route}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
      await page.waitForSelector('#root *', { timeout: 120_000 });
      await page.waitForFunction(() => document.querySelectorAll('.MuiSkeleton-root').length === 0, undefined, {
        timeout: 60_000,
      });
    }

    /** The serious and critical axe violations of the page as it is drawn now. */
    async function axeFindings(page: Page, route: string): Promise<Finding[]> {
      const results = await new AxeBuilder({ page }).analyze();
      return results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          route,
          viewport: viewport.name,
          rule: violation.id,
          impact: violation.impact ?? '',
          help: violation.help,
          targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
        }));
    }

    // One visit per route for both checks (a visit is most of the sweep's time: two passes took
    // 12 minutes at desktop size on a loaded CI machine).
    it('has, on every route, no serious or critical axe violation, nothing wider than the viewport or cut off, and no page error', async () => {
      const findings: Finding[] = [];
      const problems: string[] = [];
      const signedOut = await newPage(false);
      recordPageProblems(signedOut, problems);
      const check = async (page: Page, route: string, withAxe: boolean) => {
        await visit(page, route);
        if (withAxe) findings.push(...(await axeFindings(page, route)));
        problems.push(...(await layoutProblems(page)).map((problem) => `${route}: ${problem}`));
        // TOOLSCOPE_E2E_SCREENSHOTS=docs/screenshots: every signed-in screen at this size (issue 38).
        if (page !== signedOut) await screenshotIfAsked(page, `${viewport.name}-${screenName(route)}`);
      };
      for (const route of PUBLIC_ROUTES) await check(signedOut, route, true);
      const signedIn = await newPage(true);
      recordPageProblems(signedIn, problems);
      for (const route of [...SIGNED_IN_ROUTES, ...dataRoutes]) await check(signedIn, route, true);
      // The settings tabs: their layout (the Security tab once made the page 721 px wide).
      for (const route of tabRoutes) await check(signedIn, route, false);
      // One line per finding: which page, which rule, where; then each layout problem.
      expect({
        axe: findings.map(
          (f) => `${f.viewport} ${f.route} [${f.impact}] ${f.rule}: ${f.help} — ${f.targets.join(' | ')}`,
        ),
        layout: problems,
      }).toEqual({ axe: [], layout: [] });
    });

    more?.({ signedInPage: () => newPage(true), visit });
  });
}
