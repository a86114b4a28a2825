// The REST calls the recording tests make against an app process, over real HTTP.
export interface AppAccount {
  accessToken: string;
  workspaceId: string;
}

async function json<T>(res: Response, what: string): Promise<T> {
  if (!res.ok) throw new Error(`${what} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function signUp(baseUrl: string): Promise<AppAccount> {
  const email = `agent-owner-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'correct horse battery staple';
  const body = await json<{ accessToken: string }>(
    await fetch(`${baseUrl}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, passwordConfirmation: password, firstName: 'Ada', lastName: 'Lovelace' }),
    }),
    'sign-up',
  );
  const list = await json<{ workspaces: { id: string }[] }>(
    await fetch(`${baseUrl}/api/v1/workspaces`, { headers: bearer(body.accessToken) }),
    'workspaces',
  );
  return { accessToken: body.accessToken, workspaceId: list.workspaces[0].id };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Registers an upstream; returns the proxy URL's path (/mcp/{key}), valid on every instance. */
export async function registerServer(baseUrl: string, account: AppAccount, url: string): Promise<string> {
  const server = await json<{ proxyUrl: string }>(
    await fetch(`${baseUrl}/api/v1/workspaces/${account.workspaceId}/servers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(account.accessToken) },
      body: JSON.stringify({ url, name: 'upstream' }),
    }),
    'register server',
  );
  return new URL(server.proxyUrl).pathname;
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
