jest.setTimeout(300_000);

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import schema from '../../fixtures/mcp-registry/server.schema.json';
import bundledCatalog from '../../../src/server/modules/marketplace/bundledCatalog.json';

const bundled = bundledCatalog as unknown as { servers: ({ name: string } & Record<string, unknown>)[] };
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';

describe('the bundled catalog', () => {
  it('holds at least 30 servers, each valid against the MCP Registry server.json schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const problems: string[] = [];
    for (const server of bundled.servers) {
      const valid: boolean = validate(server);
      if (!valid) problems.push(`${server.name}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(problems).toEqual([]);
    expect(bundled.servers.length).toBeGreaterThanOrEqual(30);
    const names = bundled.servers.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    // The reference servers of modelcontextprotocol/servers are all there.
    for (const ref of ['everything', 'fetch', 'filesystem', 'git', 'memory', 'sequentialthinking', 'time']) {
      expect(names).toContain(`io.github.modelcontextprotocol/${ref}`);
    }
  });

  it('the schema refuses what the registry refuses (so the check above can fail)', () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate({ name: 'no-slash', description: 'x', version: '1.0.0' })).toBe(false);
    expect(validate({ name: 'a.b/c', description: 'x'.repeat(101), version: '1.0.0' })).toBe(false);
    expect(
      validate({
        name: 'a.b/c',
        description: 'x',
        version: '1',
        packages: [{ registryType: 'npm', identifier: 'x', version: 'latest', transport: { type: 'stdio' } }],
      }),
    ).toBe(false);
  });
});

describe(`marketplace API (${engineName})`, () => {
  let t: TestApp;
  let ada: TestAccount;
  const list = (app: TestApp['app'], token: string) =>
    app.inject({ method: 'GET', url: '/api/v1/marketplace/servers', headers: bearer(token) });
  beforeAll(async () => {
    t = await buildTestApp();
    ada = await registerAccount(t.app);
  });
  afterAll(() => t.close());

  it('lists the bundled catalog as cards and shows one entry; an unknown slug is 404', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/marketplace/servers' })).statusCode).toBe(401);
    const res = await list(t.app, ada.accessToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.source).toBe('bundled');
    expect(body.servers.length).toBeGreaterThanOrEqual(30);
    const github = body.servers.find((s: { name: string }) => s.name === 'io.github.github/github-mcp-server');
    expect(github).toMatchObject({
      slug: 'io-github-github-github-mcp-server',
      category: 'Developer tools',
      runKinds: ['remote', 'docker'],
      needsSecrets: true,
    });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/marketplace/servers/${github.slug}`,
      headers: bearer(ada.accessToken),
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().server.remotes[0].url).toBe('https://api.githubcopilot.com/mcp/');
    expect(detail.json().tools).toContain('search_repositories');
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/v1/marketplace/servers/no-such-server',
      headers: bearer(ada.accessToken),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('reads an operator file in the registry list shape; a broken file keeps the last good catalog, a missing one the bundled, with a warning', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'catalog-'));
    const file = path.join(dir, 'catalog.json');
    await writeFile(
      file,
      JSON.stringify({
        servers: [
          {
            server: {
              name: 'com.example/weather',
              description: 'Weather',
              version: '1.0.0',
              remotes: [{ type: 'sse', url: 'https://weather.example.com/sse' }],
            },
            _meta: {},
          },
          { server: { nope: true } },
        ],
      }),
    );
    const own = await buildTestApp({ catalogFile: file, secret: t.config.secret }, t.database);
    try {
      const body = (await list(own.app, ada.accessToken)).json();
      expect(body.source).toBe('file');
      expect(body.servers.map((s: { name: string }) => s.name)).toEqual(['com.example/weather']);
      expect(body.warning).toMatch(/1 entries/);
      await writeFile(file, '{ not json');
      const broken = (await list(own.app, ada.accessToken)).json();
      expect(broken.servers.map((s: { name: string }) => s.name)).toEqual(['com.example/weather']);
      expect(broken.warning).toMatch(/could not be read/);
    } finally {
      await own.app.close();
    }
    const missing = await buildTestApp(
      { catalogFile: path.join(dir, 'nowhere.json'), secret: t.config.secret },
      t.database,
    );
    try {
      const body = (await list(missing.app, ada.accessToken)).json();
      expect(body.source).toBe('bundled');
      expect(body.servers.length).toBeGreaterThanOrEqual(30);
      expect(body.warning).toMatch(/could not be read/);
    } finally {
      await missing.app.close();
    }
  });

  it('pages through a registry speaking the MCP Registry API v0, keeping only latest versions', async () => {
    const seen: string[] = [];
    const registry: Server = createServer((req, res) => {
      seen.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      if (url.pathname !== '/v0/servers') return res.writeHead(404).end('{}');
      const server = (name: string, version: string) => ({
        name,
        description: name,
        version,
        remotes: [{ type: 'streamable-http', url: `https://${name.split('/')[1]}.example.com/mcp` }],
      });
      if (!url.searchParams.get('cursor')) {
        res.end(
          JSON.stringify({
            servers: [
              {
                server: server('com.example/a', '1.0.0'),
                _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: false } },
              },
              {
                server: server('com.example/a', '2.0.0'),
                _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: true } },
              },
            ],
            metadata: { nextCursor: 'page2', count: 2 },
          }),
        );
      } else {
        res.end(JSON.stringify({ servers: [{ server: server('com.example/b', '1.0.0') }], metadata: { count: 1 } }));
      }
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const own = await buildTestApp(
      { catalogUrl: `http://127.0.0.1:${(registry.address() as AddressInfo).port}`, secret: t.config.secret },
      t.database,
    );
    try {
      const body = (await list(own.app, ada.accessToken)).json();
      expect(body.source).toBe('registry');
      expect(body.servers.map((s: { name: string; version: string }) => `${s.name}@${s.version}`)).toEqual([
        'com.example/a@2.0.0',
        'com.example/b@1.0.0',
      ]);
      expect(seen).toHaveLength(2);
      expect(seen[1]).toContain('cursor=page2');
    } finally {
      await own.app.close();
      await new Promise((resolve) => registry.close(resolve));
    }
  });
});
