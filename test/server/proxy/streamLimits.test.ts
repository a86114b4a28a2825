import http from 'node:http';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { listenOnLoopback } from '../helpers/loopbackServer';

jest.setTimeout(120_000);

// A GET stream holds an upstream connection for as long as it is open. The proxy keeps quiet
// streams alive toward the agent with comments, ends a stream its upstream has left silent past the
// idle limit (the SDK client opens a new one), and caps the streams one session may hold open.
async function startQuietUpstream(): Promise<{ url: string; open: () => number; close(): Promise<void> }> {
  let open = 0;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET') return res.writeHead(405).end();
    open++;
    res.once('close', () => open--);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
  });
  return { ...(await listenOnLoopback(server)), open: () => open };
}

const openStream = (url: URL, sessionId: string) =>
  fetch(url, {
    headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
  });

async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('GET streams: keep-alive, idle end, per-session cap', () => {
  let t: ProxyTestApp;
  let upstream: Awaited<ReturnType<typeof startQuietUpstream>>;
  beforeAll(async () => {
    t = await startProxyApp({ streamKeepAliveMs: 100, streamIdleMs: 1_500, streamsPerSession: 2 });
    upstream = await startQuietUpstream();
  });
  afterAll(async () => {
    await upstream.close();
    await t.close();
  });

  it('sends keep-alive comments on a quiet stream, then ends it and frees its upstream connection', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    const res = await openStream(proxyUrl, 'quiet-1');
    expect(res.status).toBe(200);
    await waitFor(() => upstream.open() === 1, 'the upstream stream');
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
      text += decoder.decode(chunk, { stream: true });
    // The stream ended on its own (the loop above finished): comments only, no event.
    expect(text).toMatch(/^(: keep-alive\n\n)+$/);
    await waitFor(() => upstream.open() === 0, 'the upstream connection to close');
  });

  it('refuses a stream past the per-session cap with 409 and a JSON-RPC error, and counts sessions apart', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    const abort = new AbortController();
    const first = await fetch(proxyUrl, {
      signal: abort.signal,
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'capped' },
    });
    const second = await fetch(proxyUrl, {
      signal: abort.signal,
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'capped' },
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await openStream(proxyUrl, 'capped');
    expect(third.status).toBe(409);
    expect(await third.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32017,
        message: 'Too many open streams for this session (limit 2); close one first',
        data: { source: 'toolscope', reason: 'tooManyStreams' },
      },
    });
    // Another session is not affected.
    const otherAbort = new AbortController();
    const other = await fetch(proxyUrl, {
      signal: otherAbort.signal,
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'another' },
    });
    expect(other.status).toBe(200);
    otherAbort.abort();
    // A closed stream gives its place back.
    abort.abort();
    await waitFor(() => upstream.open() === 0, 'the streams to close');
    const again = new AbortController();
    const reopened = await fetch(proxyUrl, {
      signal: again.signal,
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'capped' },
    });
    expect(reopened.status).toBe(200);
    again.abort();
  });
});
