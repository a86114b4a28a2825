import http from 'node:http';
import { Readable } from 'node:stream';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';
import { parseTrustedProxies } from '../../../src/server/http/trustedProxies';

// Issue 39: over real HTTP, POST/GET/DELETE /mcp/{key} are served below Fastify (http/rawRoutes.ts,
// proxy/rawStreamableHttp.ts); app.inject reaches the Fastify routes. Both call the same forward(),
// and the raw path must answer exactly as Fastify does — status, headers and body — for inputs a
// client gets wrong. Each row says which path real HTTP takes (the raw routes' counter tells).

const LIMIT = 2048;

interface Case {
  name: string;
  method: string;
  /** Appended to /mcp/; KEY is the registered server's key. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent without a length (chunked over HTTP, a stream to inject). */
  chunked?: boolean;
  /** Whether real HTTP is served below Fastify. */
  raw: boolean;
}

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-dispatch', version: '1' } },
});
const longKey = 'k'.repeat(101);

const cases: Case[] = [
  { name: 'malformed JSON', method: 'POST', path: 'KEY', headers: json, body: '{"jsonrpc":', raw: true },
  { name: 'not JSON-RPC, no content type', method: 'POST', path: 'KEY', body: '{"foo":1}', raw: true },
  { name: 'empty POST, no content type', method: 'POST', path: 'KEY', raw: true },
  {
    name: 'oversized body (declared)',
    method: 'POST',
    path: 'KEY',
    headers: json,
    body: 'x'.repeat(LIMIT + 1),
    raw: true,
  },
  {
    name: 'oversized body (chunked)',
    method: 'POST',
    path: 'KEY',
    headers: json,
    body: 'x'.repeat(LIMIT * 2),
    chunked: true,
    raw: true,
  },
  {
    name: 'oversized DELETE body',
    method: 'DELETE',
    path: 'KEY',
    headers: json,
    body: 'x'.repeat(LIMIT + 1),
    raw: true,
  },
  { name: 'unknown key', method: 'POST', path: 'nosuchkey', headers: json, body: initialize, raw: true },
  { name: 'unknown key, query string', method: 'GET', path: 'nosuchkey?a=1&b', raw: true },
  { name: 'unknown key, 100 characters', method: 'DELETE', path: 'k'.repeat(100), raw: true },
  { name: 'key past maxParamLength', method: 'POST', path: longKey, headers: json, body: initialize, raw: false },
  { name: 'percent-encoded key', method: 'POST', path: 'nosuch%6Bey', headers: json, body: initialize, raw: false },
  { name: 'trailing slash', method: 'POST', path: 'KEY/', headers: json, body: initialize, raw: false },
  { name: 'wrong method', method: 'PUT', path: 'KEY', headers: json, body: initialize, raw: false },
  { name: 'HEAD', method: 'HEAD', path: 'nosuchkey', raw: false },
  {
    name: 'content type Fastify refuses',
    method: 'POST',
    path: 'KEY',
    headers: { 'content-type': 'json' },
    body: '{}',
    raw: false,
  },
  {
    name: 'bad Host',
    method: 'POST',
    path: 'KEY',
    headers: { ...json, host: 'evil.example.com' },
    body: initialize,
    raw: true,
  },
  {
    name: 'a session id no instance sealed',
    method: 'POST',
    path: 'KEY',
    headers: { ...json, 'mcp-session-id': 'ts1.forged' },
    body: initialize,
    raw: true,
  },
  {
    name: 'header and body disagree',
    method: 'POST',
    path: 'KEY',
    headers: { ...json, 'mcp-method': 'tools/list' },
    body: initialize,
    raw: true,
  },
  { name: 'the handler throws', method: 'POST', path: 'throwingkey', headers: json, body: initialize, raw: true },
];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What both paths may differ in without the answer differing: the clock, and HTTP's own keep-alive line. */
function comparable(answer: Answer): Answer {
  const headers = { ...answer.headers };
  delete headers.date;
  delete headers['keep-alive'];
  return { ...answer, headers };
}

function overHttp(base: string, c: Case, path: string, host: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = c.body === undefined ? undefined : Buffer.from(c.body);
    const headers: Record<string, string> = { host, ...c.headers };
    if (body && !c.chunked) headers['content-length'] = String(body.length);
    // Kept alive, as inject's answers are: a closing client would make every answer say `connection: close`.
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request(`${base}/mcp/${path}`, { method: c.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        agent.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    // The proxy may answer (413) and close before all of a body is taken: the answer is what counts.
    req.on('error', reject);
    if (body && c.chunked) {
      req.write(body.subarray(0, LIMIT));
      req.end(body.subarray(LIMIT));
    } else req.end(body);
  });
}

async function overInject(t: ProxyTestApp, c: Case, path: string, host: string): Promise<Answer> {
  const body = c.body === undefined ? undefined : Buffer.from(c.body);
  const res = await t.app.inject({
    method: c.method as 'POST',
    url: `/mcp/${path}`,
    headers: { host, ...c.headers },
    ...(body ? { payload: c.chunked ? Readable.from([body.subarray(0, LIMIT), body.subarray(LIMIT)]) : body } : {}),
  });
  return { status: res.statusCode, headers: res.headers as Answer['headers'], body: res.body };
}

/** Real HTTP, then inject: the same answer, and the path the case expects. */
async function expectSameAnswers(t: ProxyTestApp, c: Case, key: string): Promise<void> {
  const path = c.path.replace('KEY', key);
  const host = c.headers?.host ?? new URL(t.base).host;
  const before = t.app.rawRoutes.served;
  const viaHttp = comparable(await overHttp(t.base, c, path, host));
  expect(t.app.rawRoutes.served - before).toBe(c.raw ? 1 : 0);
  const viaInject = comparable(await overInject(t, c, path, host));
  expect(t.app.rawRoutes.served - before).toBe(c.raw ? 1 : 0);
  expect(viaHttp.status).toBeGreaterThanOrEqual(400);
  expect(viaHttp).toEqual(viaInject);
}

describe('the Streamable HTTP exchanges served below Fastify', () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let key: string;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: false });
    t = await startProxyApp({ allowPrivateUpstreams: true, proxyBodyLimitBytes: LIMIT });
    const { proxyUrl } = await t.register(upstream.url);
    key = proxyUrl.pathname.split('/').at(-1)!;
    // A directory failure that is not an outage: the exchange throws, both paths answer the generic 500.
    const get = t.app.upstreams.get.bind(t.app.upstreams);
    t.app.upstreams.get = (k: string) => (k === 'throwingkey' ? Promise.reject(new Error('boom')) : get(k));
  });
  afterAll(async () => {
    try {
      await t.close();
    } finally {
      await upstream.close();
    }
  });

  it('takes a well-formed exchange over real HTTP, and the upstream answers it', async () => {
    const before = t.app.rawRoutes.served;
    const answer = await overHttp(
      t.base,
      { name: '', method: 'POST', path: key, headers: json, body: initialize, raw: true },
      key,
      new URL(t.base).host,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18' } });
    expect(t.app.rawRoutes.served - before).toBe(1);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: the same answer on both paths', (_name, c) =>
    expectSameAnswers(t, c, key),
  );
});

// Behind a trusted proxy the Host checked is X-Forwarded-Host's (as Fastify reads it): the raw
// path must read it the same way.
describe('the exchanges below Fastify behind a trusted proxy', () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let key: string;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: false });
    t = await startProxyApp({ allowPrivateUpstreams: true, trustProxy: parseTrustedProxies('loopback') });
    key = (await t.register(upstream.url)).proxyUrl.pathname.split('/').at(-1)!;
  });
  afterAll(async () => {
    try {
      await t.close();
    } finally {
      await upstream.close();
    }
  });

  it.each([
    ['a forwarded Host the instance does not serve', { 'x-forwarded-host': 'a.example, evil.example.com' }],
    ['a forwarded Host it serves', { 'x-forwarded-host': 'evil.example.com, localhost', 'x-forwarded-proto': 'https' }],
  ])('%s: the same answer on both paths', (_name, forwarded) =>
    expectSameAnswers(
      t,
      // The body is not JSON-RPC: past the Host check the proxy answers 400 itself.
      { name: '', method: 'POST', path: 'KEY', headers: { ...json, ...forwarded }, body: '{"foo":1}', raw: true },
      key,
    ),
  );
});
