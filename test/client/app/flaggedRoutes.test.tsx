import { configure, screen, within } from '@testing-library/react';
import { FLAG_NAMES, type FlagName } from '../../../src/contract/flags';
import { AppRoutes, PROTECTED_ROUTES } from '../../../src/client/app/router';
import { NAV_SECTIONS } from '../../../src/client/shell/navigation';
import { renderShellApp, testServer } from '../helpers/renderShellApp';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 10_000 });
afterEach(() => localStorage.clear());

// Issue 38 item 6: /cost-analytics and /cost-attribution rendered fully by URL with their flags off
// while /schema-studio said it was not enabled. Every flagged route now behaves the same.
const FLAGGED = PROTECTED_ROUTES.filter(
  (route): route is (typeof PROTECTED_ROUTES)[number] & { flag: FlagName; title: string } =>
    route.flag !== undefined && route.flag !== 'show_thought_tracing',
);
const pathOf = (pattern: string) => pattern.replace(':slug', 'filesystem');
const allOn = Object.fromEntries(FLAG_NAMES.map((name) => [name, true]));

describe('flagged routes', () => {
  it('gate every screen whose sidebar entry has a flag, with the same flag', () => {
    const navFlags = NAV_SECTIONS.flatMap((section) => section.items)
      .filter((item) => item.flag)
      .map((item) => `${item.to} ${item.flag}`);
    const routeFlags = PROTECTED_ROUTES.filter((route) => route.flag).map((route) => `${route.path} ${route.flag}`);
    expect(routeFlags).toEqual(expect.arrayContaining(navFlags));
  });

  it.each(FLAGGED.map((route) => [route.path, route.flag, route.title] as const))(
    'with its flag off, %s says it is not enabled (%s)',
    async (path, flag, title) => {
      const { api } = renderShellApp(<AppRoutes />, {
        path: pathOf(path),
        signedIn: true,
        servers: [testServer()],
        flags: { ...allOn, show_onboarding_modal: false, [flag]: false },
      });
      const main = await screen.findByRole('main');
      expect(await within(main).findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      expect(within(main).getByText(`${title} is not enabled`)).toBeInTheDocument();
      expect(within(main).getByRole('link', { name: 'Back to the overview' })).toHaveAttribute('href', '/dashboard');
      api.restore();
    },
  );
});
