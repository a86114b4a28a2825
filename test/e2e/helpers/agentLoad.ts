import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// Official-SDK agents calling the fixture's `echo` tool through a proxy URL, each call's text
// unique (`{tag}-{client}-{n}`), so the test can find every call it got an answer for among the
// recorded ones. A client stops at its first failed call (its proxy was killed) or at `perClient`.
export interface AgentLoad {
  /** Texts of the calls whose answer reached the agent. */
  answered: Set<string>;
  failures: string[];
  /** Resolves when every client has stopped. */
  done: Promise<void>;
  stop(): void;
  /** Stops the clients; `endSessions` first ends each MCP session (HTTP DELETE), as a well-behaved agent does. */
  close(options?: { endSessions?: boolean }): Promise<void>;
}

export async function startAgentLoad(
  url: URL,
  options: { clients: number; perClient: number; tag: string; pauseMs?: number },
): Promise<AgentLoad> {
  const answered = new Set<string>();
  const failures: string[] = [];
  let stopped = false;
  const clients: Client[] = [];
  const transports: StreamableHTTPClientTransport[] = [];
  for (let i = 0; i < options.clients; i++) {
    const client = new Client({ name: `load-${options.tag}-${i}`, version: '1' });
    // No reconnection of the GET stream: a killed proxy must end the client, not keep it retrying.
    const transport = new StreamableHTTPClientTransport(url, {
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    });
    await client.connect(transport);
    clients.push(client);
    transports.push(transport);
  }
  const run = async (client: Client, i: number) => {
    for (let n = 0; n < options.perClient && !stopped; n++) {
      const text = `${options.tag}-${i}-${n}`;
      try {
        const result = (await client.callTool({ name: 'echo', arguments: { text } }, undefined, {
          timeout: 60_000,
        })) as { content: { text: string }[] };
        if (result.content[0]?.text !== `echo: ${text}`) throw new Error(`unexpected answer ${JSON.stringify(result)}`);
        answered.add(text);
        if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
      } catch (error) {
        failures.push(`${text}: ${(error as Error).message}`);
        return;
      }
    }
  };
  const done = Promise.all(clients.map(run)).then(() => undefined);
  return {
    answered,
    failures,
    done,
    stop: () => void (stopped = true),
    close: async ({ endSessions = false } = {}) => {
      stopped = true;
      await done;
      if (endSessions) await Promise.all(transports.map((t) => t.terminateSession().catch(() => undefined)));
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    },
  };
}

export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
