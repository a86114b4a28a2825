import type { App } from '../../../src/server/app';
import type { LoginResult, UserDto } from '../../../src/contract/auth';

// Signs up test users through the real API, as a client would.
export interface TestAccount {
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  user: UserDto;
  /** The personal workspace made at sign-up. */
  workspaceId: string;
}

let counter = 0;

export async function registerAccount(app: App, overrides: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {}): Promise<TestAccount> {
  counter += 1;
  const email = overrides.email ?? `user${counter}-${Date.now()}@example.com`;
  const password = overrides.password ?? 'correct horse battery staple';
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { email, password, passwordConfirmation: password, firstName: overrides.firstName ?? 'Ada', lastName: overrides.lastName ?? 'Lovelace' },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as LoginResult & { user: UserDto };
  const list = await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: bearer(body.accessToken) });
  const workspaceId = (list.json() as { workspaces: { id: string }[] }).workspaces[0].id;
  return { email: email.trim().toLowerCase(), password, accessToken: body.accessToken, refreshToken: body.refreshToken, user: body.user, workspaceId };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}
