import http from 'node:http';
import { bearer } from '../helpers/accounts';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

// Issue 37 item 4: a browser MCP client on an origin the server lists (the Inspector's web UI at
// http://localhost:6274) gets its preflight answered and its calls through with CORS headers; any
// other origin is refused; and a DNS-rebinding page — Host and Origin both evil.example.com, which
// a same-origin check takes for ours — is refused on its Host before anything is forwarded.
const INSPECTOR = 'http://localhost:6274';
/** An initialize whose client name says which request it was (refused ones must leave no session). */
const initialize = (client: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: client, version: '1' } },
});

/** A raw request, so Host can be anything (fetch sets it from the URL). */
function request(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        headers: {
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('browsers at a proxy URL: CORS for listed origins, Host and Origin checks', () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let proxyUrl: URL;
  let serverId: string;
  /** The clients whose sessions were recorded: what reached the proxy's forwarding. */
  const recordedClients = async () => {
    await t.app.recorder.flush();
    const rows = await t.database.db.query<{ client_name: string }>('select client_name from sessions');
    return rows.map((row) => row.client_name);
  };

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: false });
    t = await startProxyApp();
    ({
      proxyUrl,
      server: { id: serverId },
    } = await t.register(upstream.url, { allowedOrigins: [INSPECTOR] }));
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('answers the preflight of a listed origin with the MCP headers allowed, and refuses others', async () => {
    const preflight = await request(proxyUrl, 'OPTIONS', {
      origin: INSPECTOR,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-session-id, mcp-protocol-version',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(INSPECTOR);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    for (const name of ['mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id'])
      expect(preflight.headers['access-control-allow-headers']).toContain(name);

    const foreign = await request(proxyUrl, 'OPTIONS', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const unknown = await request(new URL('/mcp/AAAAAAAAAAAAAAAAAAAAAAAA', t.base), 'OPTIONS', { origin: INSPECTOR });
    expect(unknown.status).toBe(404);
  });

  it('forwards a listed origin’s call and lets the page read the session id; refuses an unlisted origin unforwarded', async () => {
    const listed = await request(proxyUrl, 'POST', { origin: INSPECTOR }, initialize('inspector'));
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
    expect(listed.headers['access-control-allow-origin']).toBe(INSPECTOR);
    expect(listed.headers['access-control-expose-headers']).toContain('mcp-session-id');
    expect(listed.headers.vary).toContain('Origin');

    const other = await request(proxyUrl, 'POST', { origin: 'http://localhost:9999' }, initialize('unlisted'));
    expect(other.status).toBe(403);
    expect(JSON.parse(other.body)).toEqual({ message: 'Origin not allowed', code: 'forbidden' });
    const clients = await recordedClients();
    expect(clients).toContain('inspector');
    expect(clients).not.toContain('unlisted');
  });

  it('refuses a DNS-rebinding request (Host and Origin both the attacker’s) before it reaches the upstream', async () => {
    const rebinding = await request(
      proxyUrl,
      'POST',
      { host: `evil.example.com:${proxyUrl.port}`, origin: `http://evil.example.com:${proxyUrl.port}` },
      initialize('rebinding'),
    );
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body)).toEqual({ message: 'Host not allowed', code: 'forbidden' });
    // Without an Origin too (a page's same-origin GET carries none).
    const get = await request(proxyUrl, 'GET', { host: 'evil.example.com', accept: 'text/event-stream' });
    expect(get.status).toBe(403);
    expect(await recordedClients()).not.toContain('rebinding');
    // Loopback names are this instance's own (it listens on 127.0.0.1).
    const local = await request(proxyUrl, 'POST', { host: `localhost:${proxyUrl.port}` }, initialize('local'));
    expect(local.status).toBe(200);
  });

  it('takes allowed origins as origins only, and a change applies at once', async () => {
    const put = (allowedOrigins: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/workspaces/${t.account.workspaceId}/servers/${serverId}`,
        headers: bearer(t.account.accessToken),
        payload: { allowedOrigins },
      });
    for (const bad of [['*'], ['https://app.example.com/path'], ['ftp://files.example'], ['not a url']]) {
      const res = await put(bad);
      expect({ bad, status: res.statusCode }).toEqual({ bad, status: 400 });
    }
    const cleared = await put([]);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ allowedOrigins: [] });
    const now = await request(proxyUrl, 'POST', { origin: INSPECTOR }, initialize('inspector'));
    expect(now.status).toBe(403);
    const readded = await put(['HTTP://LOCALHOST:6274']);
    expect(readded.json()).toMatchObject({ allowedOrigins: [INSPECTOR] });
  });
});
