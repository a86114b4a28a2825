import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';

jest.setTimeout(60_000);

// With recording off, a JSON answer to a tools/call is not parsed (MessageTap.answersObserved,
// responseRelay.ts): nothing in it is recorded or announced. A list_changed notification in such
// an answer is still announced, however its text spells the method.
describe('JSON answers nobody records', () => {
  let t: ProxyTestApp;
  let upstream: http.Server;
  let url: string;
  /** What the upstream answers to the next POST. */
  let answer = '';
  beforeAll(async () => {
    t = await startProxyApp();
    t.app.recorder.setEnabled(false);
    upstream = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((r) => upstream.close(r));
    await t.close();
  });

  const callThrough = async (proxyUrl: URL, id: number) => {
    const res = await fetch(proxyUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } }),
    });
    return res.text();
  };

  it('passes the answer on byte for byte and still announces the list changes it holds', async () => {
    const { server, proxyUrl } = await t.register(url);
    const changes: { serverId: string; kind: string }[] = [];
    const onChange = (e: { serverId: string; kind: string }) => void changes.push(e);
    t.app.proxyEvents.on('list_changed', onChange);
    try {
      answer = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"plain"}]}}';
      expect(await callThrough(proxyUrl, 1)).toBe(answer);
      answer = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"again"}]}}';
      expect(await callThrough(proxyUrl, 2)).toBe(answer);
      expect(changes).toEqual([]);
      answer =
        '[{"jsonrpc":"2.0","id":3,"result":{"content":[]}},{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}]';
      expect(await callThrough(proxyUrl, 3)).toBe(answer);
      answer =
        '[{"jsonrpc":"2.0","id":4,"result":{"content":[]}},{"jsonrpc":"2.0","method":"notifications/prompts/list\\u005fchanged"}]';
      expect(await callThrough(proxyUrl, 4)).toBe(answer);
      expect(changes).toEqual([
        expect.objectContaining({ serverId: server.id, kind: 'tools' }),
        expect.objectContaining({ serverId: server.id, kind: 'prompts' }),
      ]);
    } finally {
      t.app.proxyEvents.off('list_changed', onChange);
    }
  });
});
