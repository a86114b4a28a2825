import net from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';
import { startOidcProvider, type TestProvider } from '../fixtures/oidcProvider/testProvider';

// Issue 34 item 1 in Chromium against the built app: the login page's "Sign in with Example ID",
// the real provider's login and consent pages (oidc-provider on loopback), back to the dashboard
// signed in; and a refusal landing on the login page with its sentence.
const describeInBrowser = describeWhenChromium();

jest.setTimeout(180_000);

/** A port free now: the provider must know Toolscope's callback URL before Toolscope starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.getByRole('link', { name: 'Sign in with Example ID' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describeInBrowser('sign in with an identity provider', () => {
  let provider: TestProvider;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    provider = await startOidcProvider([
      {
        client_id: 'toolscope-e2e',
        client_secret: 'e2e-client-secret',
        redirect_uris: [`http://127.0.0.1:${port}/api/v1/auth/oidc/callback`],
      },
    ]);
    app = await startBuiltApp({
      PORT: String(port),
      TOOLSCOPE_OIDC_ISSUER: provider.issuer,
      TOOLSCOPE_OIDC_CLIENT_ID: 'toolscope-e2e',
      TOOLSCOPE_OIDC_CLIENT_SECRET: 'e2e-client-secret',
      TOOLSCOPE_OIDC_NAME: 'Example ID',
    });
    chromium = await launchChromium();
  });
  afterEach(() => context.close());
  afterAll(async () => {
    await closeBrowserAndApp(undefined, chromium, app);
    await provider.close();
  });

  const newPage = async () => {
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    recordPageProblems(page, problems);
    return page;
  };

  it('goes from the login button through the provider to the dashboard, signed in to a new account', async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/login`);
    await signInAtProvider(page, 'ada@corp.test');
    const onboarding = page.getByRole('dialog').filter({ hasText: 'Welcome to Toolscope' });
    await onboarding.getByRole('button', { name: 'Skip setup' }).click();
    await page.waitForURL(`${app.baseUrl}/dashboard`);
    expect(new URL(page.url()).hash).toBe(''); // the tokens left the address bar
    const me = await page.evaluate(async () => {
      const res = await fetch('/api/v1/users/me', {
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
      });
      return (await res.json()) as { email: string; emailVerified: boolean };
    });
    expect(me).toMatchObject({ email: 'ada@corp.test', emailVerified: true });
    await screenshotIfAsked(page, 'provider-sign-in-dashboard');
    expect(problems).toEqual([]);
  });

  it('lands on the login page with a sentence when the provider does not vouch for the address', async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/login`);
    await signInAtProvider(page, 'unverified-zoe');
    await page.waitForURL(/\/login\?sso_error=unverified_email$/);
    await page
      .getByText('Your identity provider did not confirm your email address, so Toolscope cannot sign you in with it.')
      .waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
});
