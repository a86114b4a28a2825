// Ready-to-paste configuration pointing each popular MCP client at a server's proxy URL.
// Claude Desktop's config file only starts local (stdio) servers, so it goes through mcp-remote,
// the bridge that turns a remote Streamable HTTP server into a stdio one.
export interface ClientConfig {
  id: 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'mcp-remote' | 'typescript';
  label: string;
  /** Where the snippet goes. */
  where: string;
  language: 'json' | 'shell' | 'typescript';
  snippet: string;
}

/** A name clients accept as a key or CLI argument: lowercase letters, digits and dashes. */
export function clientServerName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'toolscope';
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function clientConfigs(serverName: string, proxyUrl: string): ClientConfig[] {
  const name = clientServerName(serverName);
  return [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop',
      language: 'json',
      snippet: json({ mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', proxyUrl] } } }),
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      where: 'Run in your project (add --scope user to use it everywhere)',
      language: 'shell',
      snippet: `claude mcp add --transport http ${name} ${proxyUrl}`,
    },
    {
      id: 'cursor',
      label: 'Cursor',
      where: '.cursor/mcp.json in your project, or ~/.cursor/mcp.json for all projects',
      language: 'json',
      snippet: json({ mcpServers: { [name]: { url: proxyUrl } } }),
    },
    {
      id: 'vscode',
      label: 'VS Code',
      where: '.vscode/mcp.json in your workspace',
      language: 'json',
      snippet: json({ servers: { [name]: { type: 'http', url: proxyUrl } } }),
    },
    {
      id: 'mcp-remote',
      label: 'stdio clients',
      where: 'For clients that only start local servers: use this as the server command',
      language: 'shell',
      snippet: `npx -y mcp-remote ${proxyUrl}`,
    },
    {
      id: 'typescript',
      label: 'TypeScript SDK',
      where: 'npm install @modelcontextprotocol/sdk',
      language: 'typescript',
      snippet: [
        "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
        "import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
        '',
        "const client = new Client({ name: 'my-agent', version: '1.0.0' });",
        `await client.connect(new StreamableHTTPClientTransport(new URL('${proxyUrl}')));`,
        'const { tools } = await client.listTools();',
      ].join('\n'),
    },
  ];
}
