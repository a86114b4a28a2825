import http from 'node:http';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';
import { listenOnLoopback } from '../helpers/loopbackServer';

jest.setTimeout(120_000);

// A batch holding an invalid item must not smuggle its valid items past the record: the proxy
// answers the invalid ones itself (−32600), forwards and records the valid ones, and merges both
// answers into one batch. The upstream here runs batch items one by one, as JSON-RPC 2.0 asks.
interface LenientUpstream {
  url: string;
  received: unknown[];
  executed: string[];
  close(): Promise<void>;
}

const AGENT = 'poisoned-batch-agent';

async function startLenientUpstream(): Promise<LenientUpstream> {
  const received: unknown[] = [];
  const executed: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      const items = Array.isArray(value) ? value : [value];
      // Only the agent's traffic (the monitor's discovery talks to this upstream too).
      const fromAgent = req.headers['user-agent'] === AGENT;
      const answers = items.flatMap(
        (item: { id?: unknown; method?: unknown; params?: { name?: string } }): unknown[] => {
          if (fromAgent) received.push(item);
          if (item.method === 'tools/call') {
            if (fromAgent) executed.push(String(item.params?.name));
            return [
              {
                jsonrpc: '2.0',
                id: item.id,
                result: { content: [{ type: 'text', text: `ran ${item.params?.name}` }] },
              },
            ];
          }
          if (typeof item.method === 'string')
            return item.id === undefined ? [] : [{ jsonrpc: '2.0', id: item.id, result: {} }];
          return [{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'upstream saw an invalid item' } }];
        },
      );
      if (answers.length === 0) return res.writeHead(202).end();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Array.isArray(value) ? answers : answers[0]));
    });
  });
  return { ...(await listenOnLoopback(server)), received, executed };
}

const call = (id: string, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});
const poison = { id: 'p', method: 42 };
const post = (url: URL, body: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-03-26',
      'user-agent': AGENT,
    },
    body,
  });

describe('poisoned batches', () => {
  let t: ProxyTestApp;
  let upstream: LenientUpstream;
  beforeAll(async () => {
    t = await startProxyApp();
    upstream = await startLenientUpstream();
  });
  afterAll(async () => {
    await upstream.close();
    await t.close();
  });

  it.each([
    ['the invalid item first', (valid: unknown) => [poison, valid]],
    ['the invalid item last', (valid: unknown) => [valid, poison]],
  ])('answers the invalid item itself and forwards and records the valid call (%s)', async (_order, batch) => {
    const { server, proxyUrl } = await t.register(upstream.url);
    upstream.received.length = 0;
    upstream.executed.length = 0;
    const res = await post(proxyUrl, JSON.stringify(batch(call('evade-1', 'evade'))));
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: unknown }[];
    expect(answers).toHaveLength(2);
    expect(answers.find((a) => a.id === 'p')).toMatchObject({
      jsonrpc: '2.0',
      id: 'p',
      error: { code: -32600, message: 'Invalid Request' },
    });
    expect(answers.find((a) => a.id === 'evade-1')).toMatchObject({ result: { content: [{ text: 'ran evade' }] } });
    // The upstream never saw the invalid item; it ran the valid call once.
    expect(upstream.received).toEqual([call('evade-1', 'evade')]);
    expect(upstream.executed).toEqual(['evade']);

    await t.app.recorder.flush();
    const calls = await t.database.db.query<{ jsonrpc_id: string; status: string; tool_name: string }>(
      'select jsonrpc_id, status, tool_name from tool_calls where server_id = $1',
      [server.id],
    );
    expect(calls).toEqual([{ jsonrpc_id: 'evade-1', status: 'ok', tool_name: 'evade' }]);
  });

  it.each([
    ['a method that is not a string', JSON.stringify(poison), 'p'],
    ['an object that is no JSON-RPC message', JSON.stringify({ x: 1 }), null],
    ['an empty batch', '[]', null],
  ])('refuses %s alone with -32600 and forwards nothing', async (_what, body, id) => {
    const { server, proxyUrl } = await t.register(upstream.url);
    upstream.received.length = 0;
    const res = await post(proxyUrl, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } });
    expect(upstream.received).toEqual([]);
    await t.app.recorder.flush();
    const [{ count }] = await t.database.db.query<{ count: number }>(
      'select count(*)::int as count from tool_calls where server_id = $1',
      [server.id],
    );
    expect(count).toBe(0);
  });

  it('answers a body that is not JSON with -32700 and forwards nothing', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    upstream.received.length = 0;
    const res = await post(proxyUrl, '{"jsonrpc":"2.0","id":1,"method":');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: null, error: { code: -32700, message: 'Parse error' } });
    expect(upstream.received).toEqual([]);
  });

  it('answers refused items when only notifications remain to forward', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    upstream.received.length = 0;
    const res = await post(
      proxyUrl,
      JSON.stringify([
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 9, method: 'tools/call', params: 'not-an-object' },
      ]),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      {
        jsonrpc: '2.0',
        id: 9,
        error: {
          code: -32600,
          message: 'Invalid Request',
          data: { source: 'toolscope', reason: 'params must be an object or an array' },
        },
      },
    ]);
    expect(upstream.received).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
  });

  describe('against an SDK upstream answering in SSE', () => {
    let sdk: SdkUpstream;
    beforeAll(async () => {
      sdk = await startStreamableUpstream({ json: false, stateful: false });
    });
    afterAll(() => sdk.close());

    it('sends the refused item’s answer as an event of its own beside the upstream’s', async () => {
      const { server, proxyUrl } = await t.register(sdk.url);
      const res = await post(
        proxyUrl,
        JSON.stringify([
          poison,
          { jsonrpc: '2.0', id: 'e1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
        ]),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const events = (await res.text())
        .split(/\n\n/)
        .map((block) =>
          block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n'),
        )
        .filter((data) => data !== '')
        .map((data) => JSON.parse(data) as { id: unknown });
      expect(events.find((e) => e.id === 'p')).toMatchObject({ error: { code: -32600 } });
      expect(events.find((e) => e.id === 'e1')).toMatchObject({ result: { content: [{ text: 'echo: hi' }] } });
      await t.app.recorder.flush();
      const calls = await t.database.db.query<{ status: string }>(
        'select status from tool_calls where server_id = $1',
        [server.id],
      );
      expect(calls).toEqual([{ status: 'ok' }]);
    });
  });
});
