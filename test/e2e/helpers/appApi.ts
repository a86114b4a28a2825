// The REST calls the end-to-end tests make against an app process, over real HTTP.
export interface AppAccount {
  accessToken: string;
  /** What the app's page keeps beside the access token (a journey signs its browser in with both). */
  refreshToken: string;
  workspaceId: string;
}

/** Who signs up; the email is made unique with the time (each test run signs up anew). */
export interface Person {
  firstName: string;
  lastName: string;
  emailName: string;
  password: string;
}

const AGENT_OWNER: Person = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  emailName: 'agent-owner',
  password: 'correct horse battery staple',
};

async function json<T>(res: Response, what: string): Promise<T> {
  if (!res.ok) throw new Error(`${what} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Registers `person` through the REST API; their personal workspace is the account's. */
export async function signUp(baseUrl: string, person: Person = AGENT_OWNER): Promise<AppAccount> {
  const { firstName, lastName, password } = person;
  const email = `${person.emailName}+${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const body = await json<{ accessToken: string; refreshToken: string }>(
    await fetch(`${baseUrl}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, passwordConfirmation: password, firstName, lastName }),
    }),
    'sign-up',
  );
  const list = await json<{ workspaces: { id: string }[] }>(
    await fetch(`${baseUrl}/api/v1/workspaces`, { headers: bearer(body.accessToken) }),
    'workspaces',
  );
  return { accessToken: body.accessToken, refreshToken: body.refreshToken, workspaceId: list.workspaces[0].id };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Registers an upstream in the account's workspace; returns its proxy URL (absolute, as the app shows it). */
export async function addServer(
  baseUrl: string,
  account: AppAccount,
  server: { url: string; name: string; description?: string },
): Promise<string> {
  const added = await json<{ proxyUrl: string }>(
    await fetch(`${baseUrl}/api/v1/workspaces/${account.workspaceId}/servers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(account.accessToken) },
      body: JSON.stringify(server),
    }),
    'register server',
  );
  return added.proxyUrl;
}

/** Registers an upstream; returns the proxy URL's path (/mcp/{key}), valid on every instance. */
export async function registerServer(baseUrl: string, account: AppAccount, url: string): Promise<string> {
  return new URL(await addServer(baseUrl, account, { url, name: 'upstream' })).pathname;
}

/** GET of one of the account's API paths (below /api/v1), as JSON. */
export async function getJson<T>(baseUrl: string, account: AppAccount, path: string): Promise<T> {
  return json<T>(await fetch(`${baseUrl}/api/v1${path}`, { headers: bearer(account.accessToken) }), `GET ${path}`);
}

export interface ListedCall {
  id: string;
  sessionId: string;
  status: string;
  arguments: unknown;
}

/** Every tool call of the workspace through the tool-calls API, session by session (a page holds 200). */
export async function allToolCalls(baseUrl: string, account: AppAccount): Promise<ListedCall[]> {
  const base = `${baseUrl}/api/v1/workspaces/${account.workspaceId}`;
  const sessions = await json<{ sessions: { id: string; callCount: number }[] }>(
    await fetch(`${base}/sessions?limit=100`, { headers: bearer(account.accessToken) }),
    'sessions',
  );
  const calls: ListedCall[] = [];
  for (const session of sessions.sessions) {
    const page = await json<{ toolCalls: ListedCall[] }>(
      await fetch(`${base}/tool-calls/live?limit=200&session_id=${session.id}`, {
        headers: bearer(account.accessToken),
      }),
      'tool calls',
    );
    if (page.toolCalls.length >= 200)
      throw new Error(`session ${session.id} holds 200 calls or more: the test must make fewer per session`);
    calls.push(...page.toolCalls);
  }
  return calls;
}
