import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engineName } from '../helpers/testDatabase';
import { freePort } from '../monitor/support/freePort';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';

// GET /metrics as operators use it: a real Prometheus (Debian's package, started here with a
// config of this test's own on a free port) scrapes the app, and a PromQL query over its HTTP API
// returns the proxy's request count.
jest.setTimeout(120_000);

const TOKEN = 'metrics-token-for-the-test-0123456789';
const prometheusBinary = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((p) => fs.existsSync(p));
if (!prometheusBinary) {
  // Loud, not silent: CI installs the package (.ci/run); a developer machine may not have it.
  console.warn(
    'prometheusScrape.test.ts: NO prometheus binary found (apt-get install prometheus) — the real-scrape test cannot run here',
  );
}

describe(`Prometheus /metrics (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: false });
    t = await startProxyApp({ metricsToken: TOKEN });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('is refused without the bearer token and answers the text format with it', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: 'Bearer wrong-token-wrong-token-wrong' },
        })
      ).statusCode,
    ).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('# TYPE toolscope_recorder_queued_rows gauge');
    expect(res.body).toContain('toolscope_process_cpu_seconds_total');
  });

  it('never labels a series with a proxy key', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    const client = new Client({ name: 'labels', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    await client.listTools();
    await client.close();
    const key = proxyUrl.pathname.split('/').pop()!;
    const body = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } }))
      .body;
    expect(body).toMatch(/toolscope_proxy_requests_total\{server_id="[0-9a-f-]{36}",method="POST",status="200"\} \d+/);
    expect(body).not.toContain(key);
  });

  (prometheusBinary ? it : it.skip)(
    'a real Prometheus scrapes it and PromQL returns the proxy request count',
    async () => {
      const { server, proxyUrl } = await t.register(upstream.url, { name: 'scraped' });
      const client = new Client({ name: 'scraped-agent', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(proxyUrl));
      for (let i = 0; i < 5; i++) await client.callTool({ name: 'echo', arguments: { text: `n${i}` } });
      await client.close();
      const expected = Number(
        /toolscope_proxy_requests_total\{server_id="[^"]+",method="POST",status="200"\} (\d+)/.exec(
          (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body
            .split('\n')
            .filter((l) => l.includes(server.id))
            .join('\n'),
        )?.[1],
      );
      // initialize and the five calls answer 200 (the initialized notification gets a 202).
      expect(expected).toBeGreaterThanOrEqual(5);

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-prom-'));
      const port = await freePort();
      const target = new URL(t.base);
      fs.writeFileSync(path.join(dir, 'token'), TOKEN);
      fs.writeFileSync(
        path.join(dir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          'scrape_configs:',
          '  - job_name: toolscope',
          '    metrics_path: /metrics',
          '    authorization:',
          `      credentials_file: ${path.join(dir, 'token')}`,
          '    static_configs:',
          `      - targets: ['${target.host}']`,
          '',
        ].join('\n'),
      );
      let prometheus: ChildProcess | undefined;
      try {
        prometheus = spawn(
          prometheusBinary!,
          [
            `--config.file=${path.join(dir, 'prometheus.yml')}`,
            `--storage.tsdb.path=${path.join(dir, 'data')}`,
            `--web.listen-address=127.0.0.1:${port}`,
          ],
          {
            stdio: ['ignore', 'ignore', 'pipe'],
          },
        );
        let stderr = '';
        prometheus.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
        const query = `toolscope_proxy_requests_total{server_id="${server.id}",method="POST",status="200"}`;
        const deadline = Date.now() + 60_000;
        let value: number | undefined;
        while (Date.now() < deadline && value !== expected) {
          await new Promise((r) => setTimeout(r, 500));
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(query)}`).catch(
            () => undefined,
          );
          if (!res?.ok) continue;
          const answer = (await res.json()) as { data: { result: { value: [number, string] }[] } };
          if (answer.data.result.length > 0) value = Number(answer.data.result[0].value[1]);
        }
        if (value === undefined) throw new Error(`Prometheus never returned the series. Its log:\n${stderr}`);
        expect(value).toBe(expected);
      } finally {
        prometheus?.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 200));
        if (prometheus && prometheus.exitCode === null) prometheus.kill('SIGKILL');
        spawnSync('rm', ['-rf', dir]);
      }
    },
  );
});
