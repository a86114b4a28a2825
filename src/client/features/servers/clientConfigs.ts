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

/** Stands for the agent's platform key in snippets (the real one is shown once, at creation). */
export const KEY_PLACEHOLDER = 'tsk_YOUR_PLATFORM_KEY';

/**
 * `requireKey`: the workspace requires a platform key (docs/access.md), so every snippet sends one
 * in the Authorization header.
 */
export function clientConfigs(serverName: string, proxyUrl: string, requireKey = false): ClientConfig[] {
  const name = clientServerName(serverName);
  const bearer = `Bearer ${KEY_PLACEHOLDER}`;
  const headers = requireKey ? { headers: { Authorization: bearer } } : {};
  // mcp-remote reads a header from its arguments; the env var keeps the space out of the argument list.
  const remoteArgs = requireKey ? ['--header', 'Authorization:${TOOLSCOPE_AUTH}'] : [];
  return [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop',
      language: 'json',
      snippet: json({
        mcpServers: {
          [name]: {
            command: 'npx',
            args: ['-y', 'mcp-remote', proxyUrl, ...remoteArgs],
            ...(requireKey ? { env: { TOOLSCOPE_AUTH: bearer } } : {}),
          },
        },
      }),
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      where: 'Run in your project (add --scope user to use it everywhere)',
      language: 'shell',
      snippet: `claude mcp add --transport http ${name} ${proxyUrl}${requireKey ? ` --header "Authorization: ${bearer}"` : ''}`,
    },
    {
      id: 'cursor',
      label: 'Cursor',
      where: '.cursor/mcp.json in your project, or ~/.cursor/mcp.json for all projects',
      language: 'json',
      snippet: json({ mcpServers: { [name]: { url: proxyUrl, ...headers } } }),
    },
    {
      id: 'vscode',
      label: 'VS Code',
      where: '.vscode/mcp.json in your workspace',
      language: 'json',
      snippet: json({ servers: { [name]: { type: 'http', url: proxyUrl, ...headers } } }),
    },
    {
      id: 'mcp-remote',
      label: 'stdio clients',
      where: 'For clients that only start local servers: use this as the server command',
      language: 'shell',
      snippet: `npx -y mcp-remote ${proxyUrl}${requireKey ? ` --header "Authorization: ${bearer}"` : ''}`,
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
        requireKey
          ? `await client.connect(new StreamableHTTPClientTransport(new URL('${proxyUrl}'), {\n  requestInit: { headers: { Authorization: \`Bearer \${process.env.TOOLSCOPE_KEY}\` } },\n}));`
          : `await client.connect(new StreamableHTTPClientTransport(new URL('${proxyUrl}')));`,
        'const { tools } = await client.listTools();',
      ].join('\n'),
    },
  ];
}
