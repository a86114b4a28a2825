jest.setTimeout(300_000);

import http from 'node:http';
import net from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { registerAccount, type TestAccount } from '../helpers/accounts';
import { startProxyApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream } from '../proxy/support/sdkUpstream';

// Issue 31 item 9: 400 connections that sent half a request were all held for 45 s. Now one
// address holds at most TOOLSCOPE_CONNECTIONS_PER_CLIENT connections (the rest are closed at
// once), a request's headers must arrive within TOOLSCOPE_HEADERS_TIMEOUT_MS, and another client
// is served throughout; long-lived streams (the live stream, MCP) are neither cut nor counted.
const PER_CLIENT = 12;
const HEADERS_TIMEOUT_MS = 3_000;
// Only the bound past which the test fails (the timers must fire long before); nothing waits for it.
const FAIL_AFTER_MS = 20_000;

interface SlowConnection {
  socket: net.Socket;
  closed: Promise<{ answered: string }>;
}

/** A client that sends half a request line from `localAddress`, and nothing more. */
function slowHeaders(port: number, localAddress: string): Promise<SlowConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    let answered = '';
    socket.on('data', (chunk: Buffer) => (answered += chunk.toString('latin1')));
    const closed = new Promise<{ answered: string }>((done) => socket.on('close', () => done({ answered })));
    socket.on('error', () => undefined); // a reset is one way of being closed
    socket.once('connect', () => {
      socket.write('GET /api/health HTTP/1.1\r\nHost: toolscope\r\n');
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting: ${what}`)), FAIL_AFTER_MS);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/** A whole request from `localAddress` on a fresh connection: its status, or the socket error. */
function get(port: number, path: string, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe(`slow clients (${engineName})`, () => {
  let t: TestApp;
  let port: number;
  let account: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp({
      connectionsPerClient: PER_CLIENT,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      // The same limit for the whole request: a stream that outlives the headers timeout outlives this too.
      requestTimeoutMs: HEADERS_TIMEOUT_MS,
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
    account = await registerAccount(t.app);
  });
  afterAll(() => t.close());

  it('closes slow-header connections past the cap at once and the rest at the headers timeout, serving another client meanwhile', async () => {
    const flood: SlowConnection[] = [];
    for (let i = 0; i < PER_CLIENT * 4; i++) flood.push(await slowHeaders(port, '127.0.0.1'));
    // Past the cap: closed before the headers timeout could have fired, without an answer.
    const refused = flood.slice(PER_CLIENT);
    const refusedClosings = await within(Promise.all(refused.map((c) => c.closed)), 'connections past the cap closed');
    expect(refusedClosings.every((c) => c.answered === '')).toBe(true);
    const held = flood.slice(0, PER_CLIENT);
    // While the flooding address holds its cap, another client is served, and the flooder is not.
    expect(await get(port, '/api/health', '127.0.0.2')).toBe(200);
    expect(await get(port, '/api/health', '127.0.0.1')).toMatch(/^E/);
    // The held ones are cut at the headers timeout, with Node's 408.
    const heldClosings = await within(Promise.all(held.map((c) => c.closed)), 'held connections cut');
    expect(heldClosings.every((c) => c.answered === '' || c.answered.startsWith('HTTP/1.1 408'))).toBe(true);
    // The address's connections are free again.
    expect(await get(port, '/api/health', '127.0.0.1')).toBe(200);
  });

  it('neither cuts nor counts live streams: more than the cap stay open past the headers timeout', async () => {
    const streams: http.IncomingMessage[] = [];
    const requests: http.ClientRequest[] = [];
    const path = `/api/v1/workspaces/${account.workspaceId}/platform/sse?token=${account.accessToken}`;
    for (let i = 0; i < PER_CLIENT + 3; i++) {
      streams.push(
        await new Promise<http.IncomingMessage>((resolve, reject) => {
          const request = http.get({ host: '127.0.0.1', port, path, localAddress: '127.0.0.1', agent: false }, resolve);
          request.on('error', reject);
          requests.push(request);
        }),
      );
    }
    expect(streams.every((s) => s.statusCode === 200)).toBe(true);
    let ended = 0;
    for (const stream of streams) stream.on('close', () => (ended += 1));
    // A slow client opened after them is cut at the headers timeout: by then the streams lived past
    // it and past the request timeout (the same here): they time receiving the request, not the answer.
    const slow = await slowHeaders(port, '127.0.0.1');
    await within(slow.closed, 'the slow connection cut');
    expect(ended).toBe(0);
    expect(await get(port, '/api/health', '127.0.0.1')).toBe(200);
    for (const request of requests) request.destroy();
  });

  it("neither cuts nor counts the MCP proxy's streams", async () => {
    const upstream = await startStreamableUpstream({ json: false, stateful: true });
    const proxy = await startProxyApp({
      connectionsPerClient: 2,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: HEADERS_TIMEOUT_MS,
    });
    const streams: http.ClientRequest[] = [];
    try {
      const { proxyUrl } = await proxy.register(upstream.url);
      const proxyPort = Number(proxyUrl.port);
      const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      // More sessions with an open GET stream than the address may hold connections.
      let ended = 0;
      for (let i = 0; i < 4; i++) {
        const init = await fetch(proxyUrl, {
          method: 'POST',
          headers: mcpHeaders,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: `agent-${i}`, version: '1' },
            },
          }),
        });
        const session = init.headers.get('mcp-session-id') ?? '';
        await init.text();
        const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
          const request = http.get(
            {
              host: '127.0.0.1',
              port: proxyPort,
              path: proxyUrl.pathname,
              localAddress: '127.0.0.1',
              agent: false,
              headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
            },
            resolve,
          );
          request.on('error', reject);
          streams.push(request);
        });
        expect(stream.statusCode).toBe(200);
        stream.on('close', () => (ended += 1));
      }
      const slow = await slowHeaders(proxyPort, '127.0.0.1');
      await within(slow.closed, 'the slow connection cut');
      expect(ended).toBe(0);
      expect(await get(proxyPort, '/api/health', '127.0.0.1')).toBe(200);
    } finally {
      for (const request of streams) request.destroy();
      await proxy.close();
      await upstream.close();
    }
  });
});
