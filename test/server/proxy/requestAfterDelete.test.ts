// Real SDK peers, a real proxy and database: starting them takes seconds on a loaded machine.
jest.setTimeout(90_000);

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

// Issue 37, item 6: an agent that goes on with a session it deleted (a retry, a second task of
// the same agent) gets the upstream's 404. Its request re-opened the ended session's row beside
// the ended copy in one batch — PostgreSQL refused the batch ("ON CONFLICT DO UPDATE command
// cannot affect row a second time", 21000) and the recorder fell back to row-by-row writes.
/** A tools/call sent on in a session the agent has deleted. */
function callInSession(proxyUrl: URL, sessionId: string, id: number, args: object): Promise<Response> {
  return fetch(proxyUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: args } }),
  });
}

describe(`a request after its session's DELETE (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    // Flushed only when the test says: the ended session and the late request share one batch.
    t = await startProxyApp({ recorderFlushMs: 3_600_000 });
  });
  afterAll(async () => {
    // The upstream is closed even when the app never started (its TypeError is reported with the setup's).
    try {
      await t.close();
    } finally {
      await upstream.close();
    }
  });

  it('gets the upstream’s 404, and every row is written in its batch', async () => {
    const { server, proxyUrl } = await t.register(upstream.url);
    const client = new Client({ name: 'deleting-agent', version: '1' });
    const transport = new StreamableHTTPClientTransport(proxyUrl);
    await client.connect(transport);
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    const sessionId = transport.sessionId ?? '';
    await transport.terminateSession();
    await client.close();

    const late = await callInSession(proxyUrl, sessionId, 7, { text: 'after' });
    expect(late.status).toBe(404);
    await late.text();

    await t.app.recorder.flush();
    expect(t.app.recorder.stats().lastError).toBeNull();
    const sessions = await t.database.db.query<{ status: string }>('select status from sessions where server_id = $1', [
      server.id,
    ]);
    expect(sessions).toEqual([{ status: 'ended' }]);
    const calls = await t.database.db.query<{ status: string; error_message: string | null }>(
      'select status, error_message from tool_calls where server_id = $1 order by started_at',
      [server.id],
    );
    expect(calls).toEqual([
      { status: 'ok', error_message: null },
      { status: 'error', error_message: 'Session not found' },
    ]);
  });

  it('records as the late call’s answer what the agent received, and nothing it did not', async () => {
    const { server, proxyUrl } = await t.register(upstream.url);
    const client = new Client({ name: 'deleting-agent', version: '1' });
    const transport = new StreamableHTTPClientTransport(proxyUrl);
    await client.connect(transport);
    const sessionId = transport.sessionId ?? '';
    await transport.terminateSession();
    await client.close();

    const late = await callInSession(proxyUrl, sessionId, 8, {});
    const agentReceived = (await late.json()) as { id: unknown; error: { code: number; message: string } };
    expect(agentReceived).toMatchObject({ id: null, error: { code: -32001 } });

    await t.app.recorder.flush();
    const [call] = await t.database.db.query<{ response_payload: string; response_kind: string }>(
      'select response_payload, response_kind from tool_calls where server_id = $1',
      [server.id],
    );
    expect(call.response_kind).toBe('error');
    expect(JSON.parse(call.response_payload)).toEqual(agentReceived);
    // No answer the proxy made up (−32012 "Tool server answered HTTP 404…") is stored anywhere.
    const made = await t.database.db.query(
      "select 1 from messages m join sessions s on s.id = m.session_id where s.server_id = $1 and m.payload::text like '%-32012%'",
      [server.id],
    );
    expect(made).toEqual([]);
  });
});
