import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStreamableUpstream, type SdkUpstream } from '../server/proxy/support/sdkUpstream';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from '../server/proxy/support/ownPostgres';
import { createScratchDatabase, type ScratchDatabase } from '../server/helpers/scratchDatabase';
import { bearer, registerServer, signUp, type AppAccount } from './helpers/appApi';
import { until } from './helpers/agentLoad';
import { startAppProcess, type AppProcess } from './helpers/appProcess';
import { startRoundRobinBalancer, type Balancer } from './helpers/roundRobinBalancer';
import { stopEverythingStarted } from './helpers/processRegistry';

jest.setTimeout(300_000);

// Issue 19 (c): two app instances on one PostgreSQL behind a round-robin balancer the test starts
// (nothing sticky): official-SDK sessions through it work — initialize, the GET stream, calls and
// DELETE land on either instance — and each is recorded as one whole session; a dashboard's live
// stream on instance B sees the calls made through instance A.
const base = process.env.TEST_DATABASE_URL;
const unavailable = base ? null : ownPostgresUnavailable();
if (unavailable)
  console.error(
    `\n!!! instancesBehindBalancer.e2e.test.ts has no PostgreSQL (TEST_DATABASE_URL unset, and: ${unavailable}). NOT tested here. !!!\n`,
  );

interface ReplayMessage {
  seq: number;
  direction: string;
  method?: string | null;
  jsonrpcId?: string | null;
  payload: unknown;
}

describe('two instances behind a round-robin balancer', () => {
  let pg: OwnPostgres | undefined;
  let scratch: ScratchDatabase | undefined;
  let upstream: SdkUpstream | undefined;
  let balancer: Balancer | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await stopEverythingStarted();
    await balancer?.close();
    await upstream?.close();
    await scratch?.drop();
    pg?.remove();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function startInstance(databaseUrl: string, secret: string): Promise<AppProcess> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-instance-'));
    dirs.push(dataDir);
    return startAppProcess({ TOOLSCOPE_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, TOOLSCOPE_SECRET: secret });
  }

  const api = (app: AppProcess, account: AppAccount, route: string) =>
    fetch(`${app.baseUrl}/api/v1/workspaces/${account.workspaceId}${route}`, {
      headers: bearer(account.accessToken),
    }).then((r) => r.json());

  it('serves every session on any instance, records each whole, and streams live events across instances', async () => {
    if (unavailable) return; // said loudly above
    let databaseUrl: string;
    if (base) databaseUrl = (scratch = await createScratchDatabase(base, 'toolscope_instances')).url;
    else databaseUrl = (pg = await startOwnPostgres()).url;
    const secret = randomBytes(32).toString('base64url');
    const a = await startInstance(databaseUrl, secret);
    const b = await startInstance(databaseUrl, secret);
    upstream = await startStreamableUpstream({ json: false, stateful: true, keepAliveTimeoutMs: 120_000 });
    const account = await signUp(a.baseUrl);
    const proxyPath = await registerServer(a.baseUrl, account, upstream.url);
    balancer = await startRoundRobinBalancer([a.baseUrl, b.baseUrl]);

    // A dashboard on B, listening before anything is called.
    const live: { type: string; data: { arguments?: { text?: string } } }[] = [];
    const abort = new AbortController();
    const stream = await fetch(
      `${b.baseUrl}/api/v1/workspaces/${account.workspaceId}/platform/sse?token=${account.accessToken}`,
      { signal: abort.signal },
    );
    expect(stream.status).toBe(200);
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
          buffered += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = buffered.indexOf('\n\n')) >= 0) {
            const event = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const data = event.split('\n').find((line) => line.startsWith('data: '));
            if (data) live.push(JSON.parse(data.slice(6)));
          }
        }
      } catch {
        // aborted at the end
      }
    })();

    // Three SDK sessions through the balancer, ten calls each, then DELETE (terminateSession).
    const clients = 3;
    const callsEach = 10;
    const sessionIds: string[] = [];
    for (let i = 0; i < clients; i++) {
      const client = new Client({ name: `balanced-${i}`, version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(proxyPath, balancer.url));
      await client.connect(transport);
      for (let n = 0; n < callsEach; n++) {
        const text = `balanced-${i}-${n}`;
        expect(await client.callTool({ name: 'echo', arguments: { text } })).toMatchObject({
          content: [{ text: `echo: ${text}` }],
        });
      }
      sessionIds.push(transport.sessionId!);
      await transport.terminateSession();
      await client.close();
    }
    // The sessions did cross instances: both got POSTs, and GET streams and DELETEs were spread.
    const byBackend = (backend: number, method: string) =>
      balancer!.sent.filter((s) => s.backend === backend && s.method === method).length;
    expect([byBackend(0, 'POST'), byBackend(1, 'POST')].every((n) => n >= clients * 3)).toBe(true);
    expect(byBackend(0, 'DELETE') + byBackend(1, 'DELETE')).toBe(clients);
    // The agent never sees the upstream's own session id.
    expect(sessionIds.every((id) => id.startsWith('ts1.'))).toBe(true);

    // A call made through A only reaches B's dashboard.
    const direct = new Client({ name: 'direct-to-a', version: '1' });
    await direct.connect(new StreamableHTTPClientTransport(new URL(proxyPath, a.baseUrl)));
    await direct.callTool({ name: 'echo', arguments: { text: 'through-a' } });
    await until(
      () => live.some((m) => m.type === 'tool_call' && m.data.arguments?.text === 'through-a'),
      "B's live stream to show the call made through A",
      30_000,
    );
    await direct.close();
    abort.abort();

    // Each balanced session is one recorded session, ended, holding its whole replay.
    await until(
      async () => {
        const listed = (await api(a, account, '/sessions?limit=50')) as {
          sessions: { clientName: string | null; status: string }[];
        };
        return (
          listed.sessions.filter((s) => s.clientName?.startsWith('balanced-') && s.status === 'ended').length ===
          clients
        );
      },
      'the balanced sessions to be stored as ended',
      30_000,
    );
    // Counts are taken again from the stored rows shortly after the end (several instances wrote them).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const listed = (await api(b, account, '/sessions?limit=50')) as {
      sessions: { id: string; clientName: string | null; status: string; callCount: number; messageCount: number }[];
    };
    const balanced = listed.sessions.filter((s) => s.clientName?.startsWith('balanced-'));
    expect(balanced).toHaveLength(clients);
    for (const session of balanced) {
      expect(session).toMatchObject({ status: 'ended', callCount: callsEach });
      const replay = (await api(b, account, `/sessions/${session.id}/replay?limit=500`)) as {
        messages: ReplayMessage[];
      };
      const seqs = replay.messages.map((m) => m.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(seqs.length);
      const methods = replay.messages.filter((m) => m.direction === 'client_to_server').map((m) => m.method);
      expect(methods.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
      expect(methods.filter((m) => m === 'tools/call')).toHaveLength(callsEach);
      // Every call's answer follows its request.
      const answers = replay.messages.filter((m) => m.direction === 'server_to_client');
      expect(answers).toHaveLength(callsEach + 1);
      const index = session.clientName!.split('-')[1];
      const texts = replay.messages
        .filter((m) => m.method === 'tools/call')
        .map((m) => (m.payload as { params: { arguments: { text: string } } }).params.arguments.text);
      expect(texts).toEqual(Array.from({ length: callsEach }, (_, n) => `balanced-${index}-${n}`));
      expect(session.messageCount).toBe(replay.messages.length);
    }
  });
});
