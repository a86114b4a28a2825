import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test's own HTTP server on a free loopback port. */
export interface LoopbackServer {
  /** Its URL at `path` (an MCP endpoint: /mcp by default). */
  url: string;
  /** Ends the connections still open (a kept-alive one, a hanging stream), then the server. */
  close: () => Promise<void>;
}

export async function listenOnLoopback(server: http.Server, path = '/mcp'): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
