import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { Paths } from '../../../../../src/contract/routes';
import { StorageKeys } from '../../../../../src/contract/constants';
import { AppRoutes } from '../../../../../src/client/app/router';
import { selectAuthStatus } from '../../../../../src/client/features/auth/authSlice';
import { fakeAccessToken } from '../../../helpers/fakeApi';
import { renderShellApp, TEST_USER_DTO } from '../../../helpers/renderShellApp';

jest.setTimeout(30_000);
// The first lazy page of a file compiles its whole module tree; allow for a busy machine.
configure({ asyncUtilTimeout: 10_000 });
afterEach(() => localStorage.clear());

const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function fillRegisterForm(overrides: Partial<Record<'email' | 'password' | 'confirmation', string>> = {}) {
  await screen.findByRole('heading', { name: 'Create your account' });
  type(/First name/, 'Ada');
  type(/Last name/, 'Lovelace');
  type(/Email/, overrides.email ?? 'ada@example.com');
  type(/^Password/, overrides.password ?? 'correct horse');
  type(/Confirm password/, overrides.confirmation ?? overrides.password ?? 'correct horse');
}

describe('register page', () => {
  it('shows the server’s field errors at their fields', async () => {
    const { api } = renderShellApp(<AppRoutes />, {
      path: '/register',
      configureApi: (fake) =>
        fake.on('POST', Paths.register, {
          status: 400,
          body: {
            message: 'email: Enter a valid email address',
            code: 'validation_failed',
            fields: { email: 'Enter a valid email address', password: 'Password must be at least 10 characters' },
          },
        }),
    });
    // Values the browser accepts; the server still has the last word.
    await fillRegisterForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Password must be at least 10 characters')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/First name/)).toHaveAttribute('aria-invalid', 'false');
    api.restore();
  });

  it('shows a taken email at the email field', async () => {
    const { api } = renderShellApp(<AppRoutes />, {
      path: '/register',
      configureApi: (fake) =>
        fake.on('POST', Paths.register, {
          status: 409,
          body: { message: 'An account with this email already exists', code: 'conflict', fields: { email: 'An account with this email already exists' } },
        }),
    });
    await fillRegisterForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('An account with this email already exists')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('aria-invalid', 'true');
    api.restore();
  });

  it('shows every invalid field at once before sending anything', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/register' });
    await screen.findByRole('heading', { name: 'Create your account' });
    type(/Email/, 'not-an-email');
    type(/^Password/, 'short');
    type(/Confirm password/, 'shorter');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 10 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText(/First name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/Last name/)).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls).not.toContain(`POST ${Paths.register}`);
    api.restore();
  });

  it('catches a mismatched confirmation before sending anything', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/register' });
    await fillRegisterForm({ password: 'correct horse', confirmation: 'correct hose' });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(api.calls).not.toContain(`POST ${Paths.register}`);
    api.restore();
  });

  it('sends the five registration fields and signs the new account in', async () => {
    let sent: unknown;
    const { api, location, store } = renderShellApp(<AppRoutes />, {
      path: '/register',
      configureApi: (fake) =>
        fake.on('POST', Paths.register, ({ body }) => {
          sent = body;
          return { status: 201, body: { accessToken: fakeAccessToken(), refreshToken: 'refresh-1', user: TEST_USER_DTO } };
        }),
    });
    await fillRegisterForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
    expect(sent).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      passwordConfirmation: 'correct horse',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(selectAuthStatus(store.getState())).toBe('signedIn');
    expect(localStorage.getItem(StorageKeys.refreshToken)).toBe('refresh-1');
    api.restore();
  });
});

describe('login page', () => {
  it('says why sign-in failed', async () => {
    const { api } = renderShellApp(<AppRoutes />, {
      path: '/login',
      configureApi: (fake) => fake.on('POST', Paths.login, { status: 401, body: { message: 'Invalid email or password', code: 'unauthorized' } }),
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    type(/Email/, 'ada@example.com');
    type(/Password/, 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('API Error 401: Invalid email or password');
    api.restore();
  });
});

describe('password reset pages', () => {
  it('confirms a reset request', async () => {
    const message = 'If an account exists for that email, a password reset link has been sent to it.';
    const { api } = renderShellApp(<AppRoutes />, {
      path: '/forgot-password',
      configureApi: (fake) => fake.on('POST', Paths.forgotPassword, { body: { message } }),
    });
    await screen.findByRole('heading', { name: 'Reset your password' });
    type(/Email/, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    api.restore();
  });

  it('sends the token from the link with the new password', async () => {
    let sent: unknown;
    const { api } = renderShellApp(<AppRoutes />, {
      path: '/reset-password?token=reset-123',
      configureApi: (fake) =>
        fake.on('POST', Paths.resetPassword, ({ body }) => {
          sent = body;
          return { body: { message: 'Your password has been changed. Sign in with the new password.' } };
        }),
    });
    await screen.findByRole('heading', { name: 'Choose a new password' });
    type(/^New password/, 'a new password');
    type(/Confirm new password/, 'a new password');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Your password has been changed. Sign in with the new password.')).toBeInTheDocument();
    expect(sent).toEqual({ token: 'reset-123', password: 'a new password', passwordConfirmation: 'a new password' });
    api.restore();
  });

  it('explains that the page needs the emailed link when there is no token', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/reset-password' });
    expect(await screen.findByText('This page needs the link from the password reset email.')).toBeInTheDocument();
    api.restore();
  });
});

describe('/auth/callback/success', () => {
  it('stores the tokens it receives and continues to the dashboard', async () => {
    const accessToken = fakeAccessToken();
    const { api, location, store } = renderShellApp(<AppRoutes />, {
      path: `/auth/callback/success?access_token=${accessToken}&refresh_token=refresh-9`,
    });
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
    expect(localStorage.getItem(StorageKeys.accessToken)).toBe(accessToken);
    expect(localStorage.getItem(StorageKeys.refreshToken)).toBe('refresh-9');
    expect(selectAuthStatus(store.getState())).toBe('signedIn');
    api.restore();
  });

  it('says so when the link carries no token', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/auth/callback/success' });
    expect(await screen.findByText('The sign-in link did not include a token.')).toBeInTheDocument();
    api.restore();
  });
});
