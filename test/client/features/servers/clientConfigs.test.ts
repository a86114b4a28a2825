import { clientConfigs, KEY_PLACEHOLDER } from '../../../../src/client/features/servers/clientConfigs';

describe('client configuration snippets', () => {
  const url = 'https://toolscope.example.com/mcp/abc';

  it('send no key header while the workspace does not require one', () => {
    for (const config of clientConfigs('Search', url)) {
      expect(config.snippet).toContain(url);
      expect(config.snippet).not.toContain(KEY_PLACEHOLDER);
      expect(config.snippet).not.toMatch(/Authorization/);
    }
  });

  it('send the platform key in Authorization in every snippet when the workspace requires one', () => {
    const configs = clientConfigs('Search', url, true);
    for (const config of configs) expect(config.snippet).toMatch(/Authorization/);
    const byId = Object.fromEntries(configs.map((c) => [c.id, c.snippet]));
    expect(JSON.parse(byId.cursor)).toEqual({
      mcpServers: { search: { url, headers: { Authorization: `Bearer ${KEY_PLACEHOLDER}` } } },
    });
    expect(JSON.parse(byId.vscode)).toEqual({
      servers: { search: { type: 'http', url, headers: { Authorization: `Bearer ${KEY_PLACEHOLDER}` } } },
    });
    expect(JSON.parse(byId['claude-desktop']).mcpServers.search).toEqual({
      command: 'npx',
      args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${TOOLSCOPE_AUTH}'],
      env: { TOOLSCOPE_AUTH: `Bearer ${KEY_PLACEHOLDER}` },
    });
    expect(byId['claude-code']).toBe(
      `claude mcp add --transport http search ${url} --header "Authorization: Bearer ${KEY_PLACEHOLDER}"`,
    );
    expect(byId.typescript).toContain('process.env.TOOLSCOPE_KEY');
  });
});
