import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 22's screens in Chromium against the built app: /integrations adds a webhook and sends it a
// test (a receiver written here answers), and Workspace Settings → Telemetry adds an OTLP exporter
// and sends a test span to a collector written here.
const describeInBrowser = describeWhenChromium();

jest.setTimeout(240_000);

async function startReceiver() {
  const received: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describeInBrowser('integrations and telemetry journey', () => {
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const problems: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startBuiltApp({ TOOLSCOPE_FLAGS: 'show_workspace_telemetry=true,show_workspace_integrations=true' });
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });
  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await receiver.close();
  });

  it('adds a webhook on /integrations and sends it a test; adds an exporter in Telemetry and sends a test span', async () => {
    await page.goto(`${app.baseUrl}/register`);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email').fill(`grace+${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: false }).first().fill('compiler-a0-1952');
    await page.getByLabel('Confirm password').fill('compiler-a0-1952');
    await page.getByRole('button', { name: 'Create account' }).click();
    const onboarding = page.getByRole('dialog').filter({ hasText: 'Welcome to Toolscope' });
    await onboarding.getByRole('button', { name: 'Skip setup' }).click();
    await onboarding.waitFor({ state: 'detached' });

    await page.goto(`${app.baseUrl}/integrations`);
    await page.getByRole('button', { name: 'Add integration' }).first().click();
    const form = page.getByRole('dialog');
    await form.getByLabel('Kind').click();
    await page.getByRole('option', { name: /Webhook/ }).click();
    await form.getByLabel(/^Name/).fill('Ops webhook');
    await form.getByLabel('Receiver URL').fill(`${receiver.url}/hooks/toolscope`);
    await form.getByRole('button', { name: 'Add integration' }).click();
    // A webhook's signing secret is shown once.
    const secret = page.getByRole('dialog').filter({ hasText: 'Signing secret' });
    await secret.getByRole('button', { name: 'Done' }).click();
    await secret.waitFor({ state: 'detached' });

    const card = page.getByRole('article', { name: 'Ops webhook integration' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Ops webhook answered 200', { exact: false }).waitFor();
    expect(
      receiver.received.some(
        (r) => r.path === '/hooks/toolscope' && typeof r.headers['webhook-signature'] === 'string',
      ),
    ).toBe(true);
    await screenshotIfAsked(page, 'integrations');

    const workspaceId = await page.evaluate(async () => {
      const res = await fetch('/api/v1/workspaces', {
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
      });
      return ((await res.json()) as { workspaces: { id: string }[] }).workspaces[0].id;
    });
    await page.goto(`${app.baseUrl}/workspace/${workspaceId}/settings?tab=telemetry`);
    await page.getByRole('button', { name: 'Add exporter' }).first().click();
    const exporterForm = page.getByRole('dialog');
    await exporterForm.getByLabel(/^Name/).fill('Local collector');
    await exporterForm.getByLabel(/^Endpoint/).fill(receiver.url);
    await exporterForm.getByRole('button', { name: 'Add exporter' }).click();
    const exporter = page.getByRole('article', { name: 'Local collector exporter' });
    await exporter.waitFor();
    await exporter.getByRole('button', { name: 'Send test span' }).click();
    await page.getByText('Test span accepted').waitFor();
    expect(receiver.received.some((r) => r.path === '/v1/traces')).toBe(true);
    await screenshotIfAsked(page, 'workspace-telemetry');
    expect(problems).toEqual([]);
  });
});
