import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SignInDto } from '../../../../src/contract/account';
import { Paths } from '../../../../src/contract/routes';
import { formatDateTime, setDateDisplay, useDateDisplay } from '../../../../src/client/components/dates/dateDisplay';
import { PreferencesTab } from '../../../../src/client/features/settings/components/PreferencesTab';
import { SecurityTab } from '../../../../src/client/features/settings/components/SecurityTab';
import { renderShellApp } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(120_000);

let api: FakeApi | undefined;
beforeEach(() => {
  localStorage.clear();
  setDateDisplay({});
});
afterEach(() => api?.restore());

/** Any date of the app goes through the date display module; this one shows a fixed instant. */
function SomeDateOfTheApp() {
  const display = useDateDisplay();
  return <p data-testid="shown-date">{formatDateTime('2025-06-01T12:00:00Z', display)}</p>;
}

describe('Preferences tab', () => {
  it('changing the time zone changes how the app shows dates, saved to the server with a toast', async () => {
    let preferences: Record<string, unknown> = { theme: 'dark', timezone: 'UTC', dateFormat: 'iso', timeFormat: '24h' };
    const puts: unknown[] = [];
    const context = renderShellApp(
      <>
        <PreferencesTab />
        <SomeDateOfTheApp />
      </>,
      {
        signedIn: true,
        configureApi: (fake) => {
          fake.on('GET', Paths.preferences, () => ({ body: preferences }));
          fake.on('PUT', Paths.preferences, ({ body }) => {
            puts.push(body);
            preferences = { ...preferences, ...(body as object) };
            return { body: preferences };
          });
        },
      },
    );
    api = context.api;
    await waitFor(() => expect(screen.getByTestId('shown-date')).toHaveTextContent('2025-06-01, 12:00:00'));

    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    await userEvent.clear(zone);
    await userEvent.type(zone, 'Asia/Tok');
    await userEvent.click(await screen.findByRole('option', { name: 'Asia/Tokyo' }));
    await waitFor(() => expect(screen.getByTestId('shown-date')).toHaveTextContent('2025-06-01, 21:00:00'));
    // Clearing the field first saved "the browser's zone" (null); the choice is what stays.
    expect(puts[puts.length - 1]).toEqual({ timezone: 'Asia/Tokyo' });
    expect(await screen.findByText('Preferences saved')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Paused' }));
    await waitFor(() => expect(puts).toContainEqual({ activityStreamDefault: 'paused' }));
  });
});

describe('Security tab', () => {
  const now = new Date().toISOString();
  const here: SignInDto = {
    id: '11111111-1111-4111-8111-111111111111',
    device: 'Firefox on Linux',
    userAgent: 'Firefox',
    ip: '10.0.0.1',
    createdAt: now,
    lastUsedAt: now,
    current: true,
  };
  const phone: SignInDto = {
    id: '22222222-2222-4222-8222-222222222222',
    device: 'Safari on iOS',
    userAgent: 'Safari',
    ip: '10.0.0.2',
    createdAt: now,
    lastUsedAt: now,
    current: false,
  };
  const laptop: SignInDto = {
    id: '33333333-3333-4333-8333-333333333333',
    device: 'Chrome on macOS',
    userAgent: 'Chrome',
    ip: '10.0.0.3',
    createdAt: now,
    lastUsedAt: now,
    current: false,
  };

  function renderSecurity(configure: (fake: FakeApi, state: { signIns: SignInDto[] }) => void) {
    const state = { signIns: [here, phone, laptop] };
    const context = renderShellApp(<SecurityTab />, {
      signedIn: true,
      configureApi: (fake) => {
        fake.on('GET', Paths.signIns, () => ({ body: { signIns: state.signIns } }));
        configure(fake, state);
      },
    });
    api = context.api;
    return state;
  }

  it('changes the password: every field checked first, then the other sign-ins are gone from the list', async () => {
    let sent: unknown;
    renderSecurity((fake, state) =>
      fake.on('POST', Paths.password, ({ body }) => {
        sent = body;
        state.signIns = [here];
        return { body: { message: 'changed', signedOutOthers: 2 } };
      }),
    );
    const list = await screen.findByRole('list', { name: 'Active sign-ins' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByText('This device')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'other');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getAllByText('Required').length).toBeGreaterThan(0);
    expect(screen.getByText('Password must be at least 10 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(sent).toBeUndefined();

    await userEvent.type(screen.getByLabelText('Current password'), 'old secret 123');
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.type(screen.getByLabelText('New password'), 'a new long secret');
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a new long secret');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('2 other sign-ins were signed out.')).toBeInTheDocument();
    expect(sent).toEqual({
      currentPassword: 'old secret 123',
      newPassword: 'a new long secret',
      newPasswordConfirmation: 'a new long secret',
    });
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Active sign-ins' })).getAllByRole('listitem')).toHaveLength(1),
    );
  });

  it('shows a wrong current password at its field', async () => {
    renderSecurity((fake) =>
      fake.on('POST', Paths.password, {
        status: 400,
        body: {
          message: 'The current password is not correct',
          code: 'bad_request',
          fields: { currentPassword: 'The current password is not correct' },
        },
      }),
    );
    await userEvent.type(screen.getByLabelText('Current password'), 'wrong one');
    await userEvent.type(screen.getByLabelText('New password'), 'a new long secret');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a new long secret');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is not correct')).toBeInTheDocument();
  });

  it('revokes one sign-in, and signs out everywhere else', async () => {
    const deleted: string[] = [];
    renderSecurity((fake, state) => {
      fake.on('DELETE', Paths.signIn(phone.id), () => {
        deleted.push(phone.id);
        state.signIns = state.signIns.filter((s) => s.id !== phone.id);
        return { status: 204 };
      });
      fake.on('POST', Paths.revokeOtherSignIns, () => {
        state.signIns = [here];
        return { body: { revoked: 1 } };
      });
    });
    const list = await screen.findByRole('list', { name: 'Active sign-ins' });
    expect(within(list).queryByRole('button', { name: /Sign out Firefox on Linux/ })).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: 'Sign out Safari on iOS (10.0.0.2)' }));
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).toBeNull());
    expect(deleted).toEqual([phone.id]);
    expect(screen.getByText('Chrome on macOS')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await waitFor(() => expect(screen.queryByText('Chrome on macOS')).toBeNull());
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  });
});
