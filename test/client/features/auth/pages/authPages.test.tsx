import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { Paths } from '../../../../../src/contract/routes';
import { SignInProviderPaths } from '../../../../../src/contract/signInProviders';
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
          body: {
            message: 'An account with this email already exists',
            code: 'conflict',
            fields: { email: 'An account with this email already exists' },
          },
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
          return {
            status: 201,
            body: { accessToken: fakeAccessToken(), refreshToken: 'refresh-1', user: TEST_USER_DTO },
          };
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
      configureApi: (fake) =>
        fake.on('POST', Paths.login, {
          status: 401,
          body: { message: 'Invalid email or password', code: 'unauthorized' },
        }),
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    type(/Email/, 'ada@example.com');
    type(/Password/, 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // A sentence for a person (issue 38), not the client error's "API Error 401: …".
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('That email and password do not match an account.');
    expect(alert).not.toHaveTextContent('API Error');
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
    expect(
      await screen.findByText('Your password has been changed. Sign in with the new password.'),
    ).toBeInTheDocument();
    expect(sent).toEqual({ token: 'reset-123', password: 'a new password', passwordConfirmation: 'a new password' });
    api.restore();
  });

  it('explains that the page needs the emailed link when there is no token', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/reset-password' });
    expect(await screen.findByText('This page needs the link from the password reset email.')).toBeInTheDocument();
    api.restore();
  });
});

describe('sign in with an identity provider', () => {
  const provider = {
    id: 'oidc' as const,
    name: 'Example ID',
    clientId: 'toolscope',
    startUrl: SignInProviderPaths.start,
  };

  it('offers the operator’s provider under the password form, as a link that keeps where the visitor was going', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/login', signInProviders: [provider] });
    const button = await screen.findByRole('link', { name: 'Sign in with Example ID' });
    expect(button).toHaveAttribute('href', '/api/v1/auth/oidc/start?redirect=%2Fdashboard');
    api.restore();
  });

  it('shows no provider button when none is configured', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/login' });
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
    api.restore();
  });

  it('says in a sentence why a provider sign-in did not complete', async () => {
    const { api } = renderShellApp(<AppRoutes />, {
      path: '/login?sso_error=account_exists',
      signInProviders: [provider],
    });
    expect(
      await screen.findByText(/An account with this email already exists. Sign in with your password, then connect/),
    ).toBeInTheDocument();
    api.restore();
  });

  it('shows the generic sentence for a code it does not know', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/login?sso_error=%3Cscript%3E' });
    expect(await screen.findByText(/The identity provider could not be reached/)).toBeInTheDocument();
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

  it('takes the tokens from the fragment, where Toolscope’s provider sign-in puts them, and goes to ?redirect=', async () => {
    const accessToken = fakeAccessToken();
    const { api, location } = renderShellApp(<AppRoutes />, {
      path: `/auth/callback/success#access_token=${accessToken}&refresh_token=refresh-10&redirect=%2Fservers`,
    });
    await waitFor(() => expect(location().pathname).toBe('/servers'));
    expect(localStorage.getItem(StorageKeys.accessToken)).toBe(accessToken);
    expect(localStorage.getItem(StorageKeys.refreshToken)).toBe('refresh-10');
    api.restore();
  });

  it('says so when the link carries no token', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/auth/callback/success' });
    expect(await screen.findByText('The sign-in link did not include a token.')).toBeInTheDocument();
    api.restore();
  });
});

describe('/verify-email', () => {
  it('verifies with the token from the link once, and says so', async () => {
    const sent: unknown[] = [];
    const { api } = renderShellApp(<AppRoutes />, {
      path: '/verify-email?token=verify-123',
      configureApi: (fake) =>
        fake.on('POST', Paths.verifyEmail, ({ body }) => {
          sent.push(body);
          return { body: { message: 'Your email address is verified.' } };
        }),
    });
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(sent).toEqual([{ token: 'verify-123' }]);
    api.restore();
  });

  it('says why a used or expired link failed, and offers a new one to a signed-in user', async () => {
    const { api } = renderShellApp(<AppRoutes />, {
      path: '/verify-email?token=used-1',
      signedIn: true,
      user: { ...TEST_USER_DTO, emailVerified: false },
      configureApi: (fake) => {
        fake.on('POST', Paths.verifyEmail, {
          status: 400,
          body: { message: 'This verification link is invalid or has expired', code: 'bad_request' },
        });
        fake.on('POST', Paths.verificationEmail, {
          status: 202,
          body: { message: 'We sent a verification link to ada@example.com.' },
        });
      },
    });
    expect(await screen.findByText('This verification link is invalid or has expired')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText('We sent a verification link to ada@example.com.')).toBeInTheDocument();
    api.restore();
  });
});
