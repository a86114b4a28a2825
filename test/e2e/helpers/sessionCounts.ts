import { bearer, type AppAccount, type ListedCall } from './appApi';
import { until } from './agentLoad';

// Whether the load's sessions show, in the sessions list, the counts their stored rows give: calls
// (the tool-calls API) and messages (the replay). A session's row is rewritten at most once a
// second while busy, so its last counts may land just after the rows: waited for as a state, and
// what never agrees within the time is returned for the assertion to print.

interface ListedSession {
  id: string;
  status: string;
  callCount: number;
  messageCount: number;
  clientName: string | null;
}

async function disagreeing(
  baseUrl: string,
  account: AppAccount,
  calls: readonly ListedCall[],
  expect: { clientPrefix: string; sessions: number; status?: 'active' | 'ended' },
): Promise<unknown[]> {
  const get = async <T>(path: string) =>
    (await (
      await fetch(`${baseUrl}/api/v1/workspaces/${account.workspaceId}${path}`, {
        headers: bearer(account.accessToken),
      })
    ).json()) as T;
  const listed = await get<{ sessions: ListedSession[] }>('/sessions?limit=100');
  const agents = listed.sessions.filter((s) => s.clientName?.startsWith(expect.clientPrefix));
  const wrong: unknown[] = agents.length === expect.sessions ? [] : [{ agentSessions: agents.length }];
  for (const session of agents) {
    if (expect.status && session.status !== expect.status) wrong.push({ session: session.id, status: session.status });
    const replay = await get<{ messages: unknown[] }>(`/sessions/${session.id}/replay?limit=1000`);
    const recorded = calls.filter((call) => call.sessionId === session.id).length;
    if (session.callCount !== recorded || session.messageCount !== replay.messages.length)
      wrong.push({
        session: session.id,
        counted: { calls: session.callCount, messages: session.messageCount },
        stored: { calls: recorded, messages: replay.messages.length },
      });
  }
  return wrong;
}

/** The sessions whose counts still disagree with their rows after up to 30 s (empty: all agree). */
export async function sessionsDisagreeing(
  baseUrl: string,
  account: AppAccount,
  calls: readonly ListedCall[],
  expect: { clientPrefix: string; sessions: number; status?: 'active' | 'ended' },
): Promise<unknown[]> {
  let wrong: unknown[] = [];
  await until(
    async () => (wrong = await disagreeing(baseUrl, account, calls, expect)).length === 0,
    'session counts to equal their rows',
    30_000,
  ).catch(() => undefined);
  return wrong;
}
