import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import bundledCatalog from '../../../src/server/modules/marketplace/bundledCatalog.json';
import { startEverything, type EverythingServer } from '../proxy/support/everything';

// Issue 38: the marketplace's Everything entry listed 5 tools where the real server has 13. The
// entry's tools are checked against the installed server-everything (the version the catalog names).
const bundled = bundledCatalog as unknown as {
  servers: { name: string; _meta?: Record<string, { tools?: string[] }> }[];
};

describe("the marketplace's Everything entry", () => {
  let upstream: EverythingServer;
  beforeAll(async () => {
    upstream = await startEverything();
  });
  afterAll(() => upstream.stop());

  it('lists every tool the real server has', async () => {
    const client = new Client({ name: 'catalog-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(upstream.url)));
    const real = (await client.listTools()).tools.map((tool) => tool.name).sort();
    await client.close();
    const entry = bundled.servers.find((server) => server.name === 'io.github.modelcontextprotocol/everything');
    const listed = [...(entry?._meta?.['io.toolscope/catalog']?.tools ?? [])].sort();
    expect(listed).toEqual(real);
  });
});
