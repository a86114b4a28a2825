import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OnboardingDialog } from '../../../../src/client/features/onboarding/OnboardingDialog';
import {
  ONBOARDING_COMPLETED_KEY,
  ONBOARDING_SKIPPED_KEY,
} from '../../../../src/client/features/onboarding/onboardingMarkers';
import { configApi } from '../../../../src/client/features/flags/configApi';
import { serversApi } from '../../../../src/client/features/servers/serversApi';
import { Paths } from '../../../../src/contract/routes';
import type { ServerDto } from '../../../../src/contract/servers';
import { renderShellApp, testServer } from '../../helpers/renderShellApp';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

function renderOnboarding({ path = '/dashboard', servers = [] as ServerDto[], flag = true } = {}) {
  return renderShellApp(<OnboardingDialog />, {
    signedIn: true,
    path,
    servers,
    flags: { show_onboarding_modal: flag },
  });
}

const dialog = () => screen.findByRole('dialog', { name: 'Welcome to Toolscope' });

describe('onboarding dialog', () => {
  it('opens when the workspace has no servers, and leads through both steps to /servers', async () => {
    const { api, location } = renderOnboarding();
    const welcome = await dialog();
    await userEvent.click(within(welcome).getByRole('button', { name: 'Get Started' }));

    const connect = screen.getByRole('dialog', { name: 'Connect Tool Server' });
    expect(within(connect).getByRole('button', { name: "I'll do this later" })).toBeInTheDocument();
    await userEvent.click(within(connect).getByRole('button', { name: 'Connect Tool Server' }));

    await waitFor(() => expect(location().pathname).toBe('/servers'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(localStorage.getItem(ONBOARDING_COMPLETED_KEY)).toBe('true');
    api.restore();
  });

  it('remembers a skip for this session only', async () => {
    const { api, unmount } = renderOnboarding();
    await userEvent.click(within(await dialog()).getByRole('button', { name: 'Skip setup' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sessionStorage.getItem(ONBOARDING_SKIPPED_KEY)).toBe('true');
    unmount();
    api.restore();

    const again = renderOnboarding({ path: '/dashboard?noservers=true' });
    await act(async () => {
      await again.store.dispatch(serversApi.endpoints.getServers.initiate('ws-1'));
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    again.api.restore();
  });

  it('sets the skip marker with "I\'ll do this later" too', async () => {
    const { api } = renderOnboarding();
    await userEvent.click(within(await dialog()).getByRole('button', { name: 'Get Started' }));
    await userEvent.click(screen.getByRole('button', { name: "I'll do this later" }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sessionStorage.getItem(ONBOARDING_SKIPPED_KEY)).toBe('true');
    api.restore();
  });

  it('opens on welcome=true even after a skip and a completion, and clears both markers', async () => {
    sessionStorage.setItem(ONBOARDING_SKIPPED_KEY, 'true');
    localStorage.setItem(ONBOARDING_COMPLETED_KEY, 'true');
    const { api } = renderOnboarding({ path: '/dashboard?welcome=true', servers: [] });
    expect(await dialog()).toBeInTheDocument();
    expect(sessionStorage.getItem(ONBOARDING_SKIPPED_KEY)).toBeNull();
    expect(localStorage.getItem(ONBOARDING_COMPLETED_KEY)).toBeNull();
    api.restore();
  });

  it('does not open when the workspace has servers, and closes once servers exist', async () => {
    let listed: ServerDto[] = [];
    const { api, store } = renderShellApp(<OnboardingDialog />, {
      signedIn: true,
      path: '/dashboard?welcome=true',
      configureApi: (fake) => fake.on('GET', Paths.servers('ws-1'), () => ({ body: listed })),
    });
    expect(await dialog()).toBeInTheDocument();
    listed = [testServer()];
    await act(async () => {
      await store.dispatch(serversApi.endpoints.getServers.initiate('ws-1', { forceRefetch: true }));
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    api.restore();
  });

  it('stays closed when a completed user has no servers', async () => {
    localStorage.setItem(ONBOARDING_COMPLETED_KEY, 'true');
    const { api, store } = renderOnboarding();
    await act(async () => {
      await store.dispatch(serversApi.endpoints.getServers.initiate('ws-1'));
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    api.restore();
  });

  it('never shows when show_onboarding_modal is off', async () => {
    const { api, store } = renderOnboarding({ flag: false, path: '/dashboard?welcome=true' });
    await act(async () => {
      await store.dispatch(configApi.endpoints.getConfig.initiate());
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    api.restore();
  });
});
