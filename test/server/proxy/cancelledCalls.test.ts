// Real SDK peers, a real proxy and database: starting them takes seconds on a loaded machine.
jest.setTimeout(90_000);

import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Paths } from '../../../src/contract/routes';
import type { ActivityStreamResult } from '../../../src/contract/activity';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { buildMcpServer, startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

// Issue 37, item 7: an agent that gives up on a call sends notifications/cancelled (the SDK does
// when its AbortSignal fires). The call ends then, as cancelled — not minutes later as a timeout
// "No response before the session ended", and not counted as a failure.
describe(`a cancelled call (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  const cancelledUpstream: string[] = [];
  let started: () => void = () => undefined;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({
      json: false,
      stateful: true,
      build: () => {
        const server = buildMcpServer();
        server.registerTool(
          'wait',
          { description: 'Waits until cancelled', inputSchema: { label: z.string() } },
          (args, extra) =>
            new Promise((resolve) => {
              started();
              extra.signal.addEventListener('abort', () => {
                cancelledUpstream.push(args.label);
                resolve({ content: [{ type: 'text', text: 'stopped' }] });
              });
            }),
        );
        return server;
      },
    });
    t = await startProxyApp();
  });
  afterAll(async () => {
    // The upstream is closed even when the app never started (its TypeError is reported with the setup's).
    try {
      await t.close();
    } finally {
      await upstream.close();
    }
  });

  it('is recorded as cancelled with its reason once the agent cancels it, and counts as no error', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'waiting' });
    const client = new Client({ name: 'impatient-agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    const running = new Promise<void>((resolve) => (started = resolve));
    const agent = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: { label: 'first' } }, undefined, { signal: agent.signal });
    await running;
    agent.abort('the user pressed stop');
    await expect(call).rejects.toThrow();
    // The cancellation went on to the upstream (the proxy forwards it like any notification).
    await waitFor(() => Promise.resolve(cancelledUpstream.includes('first')));

    const row = await waitFor(async () => {
      await t.app.recorder.flush();
      const rows = await t.database.db.query<{
        status: string;
        error_message: string | null;
        duration_ms: number | null;
      }>('select status, error_message, duration_ms from tool_calls where server_id = $1', [server.id]);
      return rows[0]?.status !== 'pending' ? rows[0] : undefined;
    });
    expect(row).toMatchObject({ status: 'cancelled', error_message: expect.stringMatching(/^Cancelled/) });
    expect(row.error_message).toContain('the user pressed stop');
    expect(row.duration_ms).toEqual(expect.any(Number));
    await client.close();

    const [session] = await t.database.db.query<{ error_count: number; call_count: number }>(
      'select error_count, call_count from sessions where server_id = $1',
      [server.id],
    );
    expect(session).toEqual({ error_count: 0, call_count: 1 });
    // The activity filter knows the status.
    const res = await t.app.inject({
      method: 'GET',
      url: `${Paths.activityStream(t.account.workspaceId)}?status=cancelled`,
      headers: bearer(t.account.accessToken),
    });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json<ActivityStreamResult>()
        .events.map((event) => (event.kind === 'tool_call' ? event.toolCall.status : event.kind)),
    ).toEqual(['cancelled']);
  });
});

async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
