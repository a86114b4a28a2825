import type { App } from '../../../src/server/app';
import type { LoginResult, UserDto } from '../../../src/contract/auth';
import { waitForMail } from './testMailbox';

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

export async function registerAccount(
  app: App,
  overrides: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {},
): Promise<TestAccount> {
  counter += 1;
  const email = overrides.email ?? `user${counter}-${Date.now()}@example.com`;
  const password = overrides.password ?? 'correct horse battery staple';
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: {
      email,
      password,
      passwordConfirmation: password,
      firstName: overrides.firstName ?? 'Ada',
      lastName: overrides.lastName ?? 'Lovelace',
    },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json<LoginResult & { user: UserDto }>();
  const list = await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: bearer(body.accessToken) });
  const workspaceId = list.json<{ workspaces: { id: string }[] }>().workspaces[0].id;
  return {
    email: email.trim().toLowerCase(),
    password,
    accessToken: body.accessToken,
    refreshToken: body.refreshToken,
    user: body.user,
    workspaceId,
  };
}

/**
 * Proves the account's address as its owner does: opens the link of the verification mail sent at
 * sign-up, from the test mailbox (helpers/testMailbox.ts). Invitations need it; done once.
 */
export async function verifyEmail(app: App, account: TestAccount): Promise<void> {
  const me = await app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(account.accessToken) });
  if (me.json<UserDto>().emailVerified) return;
  const [, token] = await waitForMail(account.email, /\/verify-email\?token=([\w-]+)/);
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { token } });
  if (res.statusCode !== 200) throw new Error(`verification failed: ${res.statusCode} ${res.body}`);
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/**
 * Makes `invitee` a member of `workspaceId` the way people join: `inviter` invites by email, the
 * invitee accepts (docs/api.md "Invitations"; nobody is added without consent).
 */
export async function joinWorkspace(
  app: App,
  inviter: TestAccount,
  workspaceId: string,
  invitee: TestAccount,
  role: 'member' | 'admin' | 'owner' = 'member',
): Promise<void> {
  await verifyEmail(app, invitee);
  const invited = await app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${workspaceId}/members`,
    headers: bearer(inviter.accessToken),
    payload: { email: invitee.email, role },
  });
  if (invited.statusCode !== 202) throw new Error(`invite failed: ${invited.statusCode} ${invited.body}`);
  const mine = await app.inject({
    method: 'GET',
    url: '/api/v1/users/me/invitations',
    headers: bearer(invitee.accessToken),
  });
  const invitation = mine
    .json<{ invitations: { id: string; workspaceId: string }[] }>()
    .invitations.find((i) => i.workspaceId === workspaceId);
  if (!invitation) throw new Error(`no invitation to ${workspaceId}: ${mine.body}`);
  const accepted = await app.inject({
    method: 'POST',
    url: `/api/v1/invitations/${invitation.id}/accept`,
    headers: bearer(invitee.accessToken),
  });
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.statusCode} ${accepted.body}`);
}
