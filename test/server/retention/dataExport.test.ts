import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import type { ExportLine } from '../../../src/contract/dataExport';
import type { ReplayResult, SessionListResult } from '../../../src/contract/sessions';

jest.setTimeout(120_000);

// Issue 33 items 3 and 4: the workspace's sessions leave as JSON Lines in the replay's format —
// every message present, payloads byte-equal to what the replay shows — with the audit log; and
// one session can be deleted from its page.

type Line = ExportLine;

describe(`export and session deletion (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let proxyUrl: URL;
  const words = ['plain words', 'ünïcödé ✓ 日本語 "quoted" \\ back\\slash', 'x'.repeat(20_000)];

  const url = (path: string) => `/api/v1/workspaces/${t.account.workspaceId}${path}`;
  const get = (path: string) => t.app.inject({ method: 'GET', url: url(path), headers: bearer(t.account.accessToken) });
  const lines = (body: string): Line[] =>
    body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Line);

  async function recordSession(texts: string[], end = true) {
    const client = new Client({ name: 'export-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(proxyUrl);
    await client.connect(transport);
    for (const text of texts) await client.callTool({ name: 'echo', arguments: { text } });
    if (end) await transport.terminateSession();
    await client.close();
    await t.app.recorder.flush();
  }

  beforeAll(async () => {
    t = await startProxyApp();
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    proxyUrl = (await t.register(upstream.url, { name: 'fixture' })).proxyUrl;
    await recordSession(words);
  });
  afterAll(async () => {
    await (upstream as SdkUpstream | undefined)?.close();
    await (t as ProxyTestApp | undefined)?.close();
  });

  it('round-trips a session: every message of the replay, payloads byte-equal, its calls, then the audit log', async () => {
    const [session] = (await get('/sessions')).json<SessionListResult>().sessions;
    const replay = (await get(`/sessions/${session.id}/replay?limit=1000`)).json<ReplayResult>();

    // Streamed over real HTTP, as a browser or curl reads it.
    const response = await fetch(`${t.base}${url('/export')}`, { headers: bearer(t.account.accessToken) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="toolscope-export-.*\.jsonl"/);
    const exported = lines(await response.text());

    expect(exported[0]).toMatchObject({ type: 'export', version: 1, workspaceId: t.account.workspaceId, sessions: 1 });
    expect(exported.flatMap((l) => (l.type === 'session' ? [l.session.id] : []))).toEqual([session.id]);
    const messages = exported.flatMap((l) => (l.type === 'message' ? [l.message] : []));
    expect(messages.map((m) => m.seq)).toEqual(replay.messages.map((m) => m.seq));
    expect(messages.length).toBe(replay.total);
    for (const [i, message] of messages.entries()) {
      expect(JSON.stringify(message.payload)).toBe(JSON.stringify(replay.messages[i].payload));
      expect(message).toEqual(replay.messages[i]);
    }
    // What the agent sent is there, byte for byte, in the calls' request payloads.
    const sent = messages
      .filter((m) => m.method === 'tools/call' && m.kind === 'request')
      .map((m) => (m.payload as { params: { arguments: { text: string } } }).params.arguments.text);
    expect(sent).toEqual(words);
    const calls = exported.flatMap((l) => (l.type === 'toolCall' ? [l.toolCall] : []));
    expect(calls).toEqual(replay.toolCalls);
    expect(calls).toHaveLength(3);

    const audit = exported.flatMap((l) => (l.type === 'audit' ? [l.event] : []));
    expect(audit.map((e) => e.action)).toContain('data.exported');
    expect(exported.at(-1)).toEqual({
      type: 'end',
      sessions: 1,
      messages: messages.length,
      toolCalls: 3,
      auditEvents: audit.length,
    });
  });

  it('exports a range and the parts asked for; refuses a bad part or range', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const none = lines((await get(`/export?from=${future}&include=sessions`)).body);
    expect(none.map((l) => l.type)).toEqual(['export', 'end']);
    const auditOnly = lines((await get('/export?include=audit')).body);
    expect(auditOnly.some((l) => l.type === 'session')).toBe(false);
    expect(auditOnly.some((l) => l.type === 'audit')).toBe(true);

    const bad = await get('/export?include=sessions,passwords');
    expect(bad.statusCode).toBe(400);
    const backwards = await get(`/export?from=${future}&to=${new Date().toISOString()}`);
    expect(backwards.statusCode).toBe(400);
  });

  it('deletes one ended session with its messages, calls and payloads; an active one is refused', async () => {
    const [session] = (await get('/sessions')).json<SessionListResult>().sessions;
    const removed = await t.app.inject({
      method: 'DELETE',
      url: url(`/sessions/${session.id}`),
      headers: bearer(t.account.accessToken),
    });
    expect(removed.statusCode).toBe(204);
    expect((await get(`/sessions/${session.id}`)).statusCode).toBe(404);
    for (const table of ['sessions', 'messages', 'tool_calls']) {
      const column = table === 'sessions' ? 'id' : 'session_id';
      const [row] = await t.database.db.query<{ n: number }>(
        `select count(*)::int as n from ${table} where ${column} = $1`,
        [session.id],
      );
      expect({ table, rows: row.n }).toEqual({ table, rows: 0 });
    }
    expect(lines((await get('/export?include=sessions')).body)[0]).toMatchObject({ sessions: 0 });
    const audit = lines((await get('/export?include=audit')).body).flatMap((l) =>
      l.type === 'audit' ? [l.event] : [],
    );
    expect(audit.find((e) => e.action === 'session.deleted')?.target).toBe(session.id);

    await recordSession(['still going'], false);
    const [active] = (await get('/sessions?status=active')).json<SessionListResult>().sessions;
    const refused = await t.app.inject({
      method: 'DELETE',
      url: url(`/sessions/${active.id}`),
      headers: bearer(t.account.accessToken),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This session is still active: it can be deleted once it has ended');
  });
});
