import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import { PLANS } from '../../../../src/contract/plans';
import { DEFAULT_FLAGS } from '../../../../src/contract/flags';
import type { WorkspaceDto } from '../../../../src/contract/workspaces';
import { AppDialogs } from '../../../../src/client/app/AppDialogs';
import { openDialog, selectOpenDialog } from '../../../../src/client/app/dialogsSlice';
import { selectCurrentWorkspaceId } from '../../../../src/client/features/workspaces/workspaceSlice';
import { fakeAccessToken, installFakeApi, type FakeApi, type FakeResponse } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';

// jest.config.ts gives the client project 15 s, but Jest reads testTimeout only globally; a shared
// two-core machine needs more than the default 5 s for these user-event walks.
jest.setTimeout(15_000);

const LIMIT_TEXT = 'Your Starter plan allows 1 workspace. Upgrade to create more.';

function createdWorkspace(body: {
  name: string;
  description: string;
  workspaceType: 'personal' | 'team';
}): WorkspaceDto {
  return { id: 'ws-new', ...body, role: 'owner', createdAt: '2026-11-21T06:00:00.000Z' };
}

let api: FakeApi;

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
  localStorage.setItem(StorageKeys.refreshToken, 'refresh-token');
  api = installFakeApi();
  api.on('GET', Paths.config, {
    body: { flags: DEFAULT_FLAGS, plans: PLANS, environment: 'production', version: 'test', publicUrl: null },
  });
  api.on('GET', Paths.workspaces, { body: { workspaces: [] } });
  api.on('POST', Paths.refresh, () => ({ body: { accessToken: fakeAccessToken(), refreshToken: 'refresh-token-2' } }));
});

afterEach(() => api.restore());

function openCreateDialog(limit: FakeResponse | ((type: string | null) => FakeResponse)) {
  const limitTypes: (string | null)[] = [];
  api.on('GET', Paths.canCreateWorkspace, ({ url }) => {
    const type = url.searchParams.get('type');
    limitTypes.push(type);
    return typeof limit === 'function' ? limit(type) : limit;
  });
  const view = renderWithProviders(<AppDialogs />);
  act(() => {
    view.store.dispatch(openDialog('createWorkspace'));
  });
  return { ...view, limitTypes };
}

const submitButton = (name: string | RegExp) => screen.getByRole('button', { name });

describe('CreateWorkspaceDialog', () => {
  it("checks the limit on opening ('Checking limits...') and then offers 'Create Workspace'", async () => {
    const { limitTypes } = openCreateDialog({ body: { canCreate: true, error: null } });
    expect(screen.getByRole('dialog', { name: 'Create Workspace' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Checking limits...' })).toBeDisabled();

    expect(await screen.findByRole('button', { name: 'Create Workspace' })).toBeDisabled();
    expect(screen.queryByText('Checking limits...')).not.toBeInTheDocument();
    expect(limitTypes).toEqual(['personal']);
    expect(screen.getByRole('radio', { name: /Personal/ })).toBeChecked();
  });

  it('keeps the submit disabled while the name is blank after trimming', async () => {
    const user = userEvent.setup();
    openCreateDialog({ body: { canCreate: true, error: null } });
    await screen.findByRole('button', { name: 'Create Workspace' });
    const name = screen.getByRole('textbox', { name: /Name/ });
    await user.type(name, '   ');
    expect(submitButton('Create Workspace')).toBeDisabled();
    await user.type(name, 'Research');
    expect(submitButton('Create Workspace')).toBeEnabled();
  });

  it("creates the workspace ('Creating...'), switches to it, toasts 'Workspace Created' and closes", async () => {
    const user = userEvent.setup();
    let answer!: () => void;
    const posted: unknown[] = [];
    const { store } = openCreateDialog({ body: { canCreate: true, error: null } });
    api.on('POST', Paths.workspaces, ({ body }) => {
      posted.push(body);
      return new Promise<FakeResponse>((resolve) => {
        answer = () => resolve({ status: 201, body: createdWorkspace(body as never) });
      });
    });

    await screen.findByRole('button', { name: 'Create Workspace' });
    await user.click(screen.getByRole('textbox', { name: /Name/ }));
    await user.paste('  Research ');
    await user.click(screen.getByRole('textbox', { name: /Description/ }));
    await user.paste('Agents of the research team');
    await user.click(submitButton('Create Workspace'));

    expect(await screen.findByRole('button', { name: 'Creating...' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: /Name/ })).toBeDisabled();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      name: 'Research',
      description: 'Agents of the research team',
      workspaceType: 'personal',
    });

    act(() => answer());
    expect(await screen.findByText('Workspace Created')).toBeInTheDocument();
    expect(screen.getByText('Switched to Research.')).toBeInTheDocument();
    await waitFor(() => expect(selectOpenDialog(store.getState())).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Create Workspace' })).not.toBeInTheDocument();
    expect(selectCurrentWorkspaceId(store.getState())).toBe('ws-new');
    await waitFor(() => expect(api.calls).toContain(`POST ${Paths.refresh}`));
  });

  it('shows why creating failed in an alert and keeps what was typed', async () => {
    const user = userEvent.setup();
    openCreateDialog({ body: { canCreate: true, error: null } });
    api.on('POST', Paths.workspaces, {
      status: 409,
      body: { message: 'A workspace named Research already exists', code: 'conflict' },
    });

    await screen.findByRole('button', { name: 'Create Workspace' });
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Research');
    await user.type(screen.getByRole('textbox', { name: /Description/ }), 'Agents');
    await user.click(screen.getByRole('radio', { name: /Team/ }));
    await screen.findByRole('button', { name: 'Create Workspace' });
    await user.click(submitButton('Create Workspace'));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('API Error 409: A workspace named Research already exists');
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveValue('Research');
    expect(screen.getByRole('textbox', { name: /Description/ })).toHaveValue('Agents');
    expect(screen.getByRole('radio', { name: /Team/ })).toBeChecked();
    expect(submitButton('Create Workspace')).toBeEnabled();
  });

  it("refuses with the server's text, disables the fields and offers 'Upgrade to Create', which opens the upgrade dialog", async () => {
    const user = userEvent.setup();
    const { store } = openCreateDialog({ body: { canCreate: false, error: LIMIT_TEXT } });

    const upgrade = await screen.findByRole('button', { name: 'Upgrade to Create' });
    expect(screen.getByRole('alert')).toHaveTextContent(LIMIT_TEXT);
    expect(screen.getByRole('textbox', { name: /Name/ })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: /Description/ })).toBeDisabled();

    await user.click(upgrade);
    expect(selectOpenDialog(store.getState())).toBe('upgrade');
    // The upgrade dialog first shows itself loading the configured plans, then the plan cards.
    await screen.findByRole('dialog', { name: 'Upgrade your plan' });
    expect(await screen.findByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(screen.queryByRole('dialog', { name: 'Create Workspace' })).not.toBeInTheDocument();
  });

  it('assumes creation is allowed when the limit check itself fails', async () => {
    openCreateDialog({ status: 404, body: { message: 'Not Found', code: 'not_found' } });
    expect(await screen.findByRole('button', { name: 'Create Workspace' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Name/ })).toBeEnabled();
  });

  it('checks the limit again when the type changes, and a refused type can be switched back', async () => {
    const user = userEvent.setup();
    const TEAM_TEXT = 'Team workspaces are not included in the Starter plan. Upgrade to create one.';
    const { limitTypes } = openCreateDialog((type) =>
      type === 'team' ? { body: { canCreate: false, error: TEAM_TEXT } } : { body: { canCreate: true, error: null } },
    );
    await screen.findByRole('button', { name: 'Create Workspace' });
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Ops');
    await user.click(screen.getByRole('radio', { name: /Team/ }));
    expect(await screen.findByRole('button', { name: 'Upgrade to Create' })).toBeEnabled();
    expect(screen.getByRole('alert')).toHaveTextContent(TEAM_TEXT);
    expect(screen.getByRole('textbox', { name: /Name/ })).toBeDisabled();

    await user.click(screen.getByRole('radio', { name: /Personal/ }));
    expect(await screen.findByRole('button', { name: 'Create Workspace' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveValue('Ops');
    expect(limitTypes).toEqual(['personal', 'team', 'personal']);
  });

  it('closes without creating anything on Cancel', async () => {
    const user = userEvent.setup();
    const { store } = openCreateDialog({ body: { canCreate: true, error: null } });
    await screen.findByRole('button', { name: 'Create Workspace' });
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Draft');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(selectOpenDialog(store.getState())).toBeNull());
    expect(api.calls).not.toContain(`POST ${Paths.workspaces}`);

    act(() => {
      store.dispatch(openDialog('createWorkspace'));
    });
    expect(await screen.findByRole('textbox', { name: /Name/ })).toHaveValue('');
  });
});
