import { UpstreamOAuthPaths } from '../../../src/contract/upstreamOAuth';
import type { SignInProvider } from '../../../src/contract/signInProviders';
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { DEFAULT_FLAGS, type Flags } from '../../../src/contract/flags';
import { StorageKeys } from '../../../src/contract/constants';
import { Paths } from '../../../src/contract/routes';
import type { WorkspaceDto } from '../../../src/contract/workspaces';
import type { ServerDto } from '../../../src/contract/servers';
import { makeStore, type AppStore } from '../../../src/client/app/store';
import { theme } from '../../../src/client/app/theme';
import { ToastProvider } from '../../../src/client/components/toast/ToastProvider';
import { signedIn } from '../../../src/client/features/auth/authSlice';
import { mapUser } from '../../../src/client/features/auth/userMapping';
import { workspaceSelected } from '../../../src/client/features/workspaces/workspaceSlice';
import { fakeAccessToken, installFakeApi, type FakeApi } from './fakeApi';

export const TEST_WORKSPACES: WorkspaceDto[] = [
  {
    id: 'ws-1',
    name: 'Personal',
    description: '',
    workspaceType: 'personal',
    role: 'owner',
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  {
    id: 'ws-2',
    name: 'Platform Team',
    description: '',
    workspaceType: 'team',
    role: 'admin',
    createdAt: '2026-01-02T00:00:00.000Z',
  },
];

export const TEST_USER_DTO = {
  id: 'user-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullName: 'Ada Lovelace',
  avatarUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  workspaceCount: 2,
};

export function testServer(overrides: Partial<ServerDto> = {}): ServerDto {
  return {
    id: 'srv-1',
    name: 'Everything',
    url: 'http://127.0.0.1:3001/mcp',
    description: '',
    workspaceId: 'ws-1',
    schemaCount: 3,
    riskFindingCount: 0,
    status: 'online',
    lastHealthStatus: true,
    lastChecked: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    proxyUrl: 'http://localhost/mcp/key',
    transport: 'streamable-http',
    hasCredentials: false,
    timeoutMs: null,
    kind: 'remote',
    allowedOrigins: [],
    ...overrides,
  };
}

export interface ShellTestOptions {
  path?: string;
  /** Sign a user in (tokens stored, auth slice signed in, first workspace selected). */
  signedIn?: boolean;
  /** The user the store holds; `null` keeps the user unknown (profile not loaded). */
  user?: Record<string, unknown> | null;
  flags?: Partial<Flags>;
  servers?: ServerDto[];
  workspaces?: WorkspaceDto[];
  /** Identity providers GET /api/v1/config lists (default none). */
  signInProviders?: SignInProvider[];
  /** Replace or add fake answers before the first render (which already fetches). */
  configureApi?: (api: FakeApi) => void;
}

export interface ShellTestContext {
  store: AppStore;
  api: FakeApi;
  /** The router's current location, as the app sees it. */
  location: () => { pathname: string; search: string; state: unknown };
}

/** Renders `ui` with the real store, theme, toasts and a memory router, against a fake API. */
export function renderShellApp(
  ui: ReactElement,
  options: ShellTestOptions = {},
): ShellTestContext & ReturnType<typeof render> {
  const api = installFakeApi();
  api.on('GET', Paths.config, {
    body: {
      flags: { ...DEFAULT_FLAGS, ...options.flags },
      plans: [],
      environment: 'production',
      version: 'test',
      publicUrl: null,
      deployments: { enabled: false, allowedCommands: [] },
      signInProviders: options.signInProviders ?? [],
    },
  });
  api.on('GET', Paths.workspaces, { body: { workspaces: options.workspaces ?? TEST_WORKSPACES } });
  api.on('GET', Paths.servers('ws-1'), { body: options.servers ?? [] });
  api.on('GET', Paths.servers('ws-2'), { body: options.servers ?? [] });
  for (const ws of ['ws-1', 'ws-2']) api.on('GET', UpstreamOAuthPaths.list(ws), { body: { connections: [] } });
  api.on('GET', Paths.me, { body: TEST_USER_DTO });
  api.on('POST', Paths.logout, { body: { message: 'Signed out' } });
  options.configureApi?.(api);

  if (options.signedIn) {
    localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
    localStorage.setItem(StorageKeys.refreshToken, 'refresh-token');
  }
  const store = makeStore();
  if (options.signedIn) {
    const user = options.user === undefined ? TEST_USER_DTO : options.user;
    store.dispatch(signedIn(user === null ? null : mapUser(user)));
    store.dispatch(workspaceSelected('ws-1'));
  }

  let current = { pathname: '', search: '', state: null as unknown };
  function LocationProbe() {
    const location = useLocation();
    current = { pathname: location.pathname, search: location.search, state: location.state };
    return null;
  }

  const result = render(
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ToastProvider>
          <MemoryRouter initialEntries={[options.path ?? '/']}>
            {ui}
            <LocationProbe />
          </MemoryRouter>
        </ToastProvider>
      </ThemeProvider>
    </Provider>,
  );
  return { ...result, store, api, location: () => current };
}
