import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentSession, HttpSessions } from './httpSessions';
import type { JsonRpcObject, StdioChannel } from './stdioChannel';

// One process per agent session, for servers that keep per-client state or ask their client
// things (sampling, roots, elicitation). Nothing is rewritten: the agent's initialize goes to its
// own process and every message passes as is. The process starts with the session and is stopped
// when the session ends (DELETE, idle, or the deployment stopping); a process that dies ends its
// session, and the agent's next request gets 404, which makes an MCP client initialize again.
export interface SessionProgramHost {
  /** Starts a process for one session (rejects when it cannot). */
  start(): Promise<StdioChannel>;
  /** Stops it with the stdio shutdown order. */
  stop(channel: StdioChannel): Promise<void>;
}

interface SessionState {
  channel: StdioChannel;
  /** progress token → the agent's request id, so progress goes on that request's stream. */
  progress: Map<string | number, string | number>;
}

export class PerSessionBridge {
  private readonly sessions: HttpSessions;
  private readonly channels = new Set<StdioChannel>();
  private accepting = true;

  constructor(
    private readonly host: SessionProgramHost,
    options: { idleMs: number; maxSessions: number },
  ) {
    this.sessions = new HttpSessions(
      {
        open: (session) => this.open(session),
        message: (session, message) => this.fromAgent(session, message),
        closed: (session) => this.closed(session),
      },
      options,
    );
  }

  get processCount(): number {
    return this.channels.size;
  }

  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    return this.sessions.handle(req, res, body);
  }

  /** Accepts sessions again after close() (a restart). */
  reopen(): void {
    this.accepting = true;
  }

  async close(dispose = true): Promise<void> {
    this.accepting = false;
    await this.sessions.closeAll(dispose);
    await Promise.all([...this.channels].map((channel) => this.host.stop(channel)));
  }

  private async open(session: AgentSession): Promise<void> {
    if (!this.accepting) throw new Error('The deployment is stopping');
    const channel = await this.host.start();
    this.channels.add(channel);
    const state: SessionState = { channel, progress: new Map() };
    session.state = state;
    channel.onMessage = (message) => this.fromProcess(session, state, message);
    void channel.program.exited.then(() => {
      this.channels.delete(channel);
      void session.transport.close();
    });
  }

  private fromAgent(session: AgentSession, message: JsonRpcObject): void {
    const state = session.state as SessionState | undefined;
    if (!state) return;
    const token = (message.params as { _meta?: { progressToken?: string | number } } | undefined)?._meta?.progressToken;
    if (token !== undefined && message.id !== undefined) state.progress.set(token, message.id);
    state.channel.send(message);
  }

  private fromProcess(session: AgentSession, state: SessionState, message: JsonRpcObject): void {
    if (message.method === undefined && message.id !== undefined) {
      for (const [token, id] of state.progress) if (id === message.id) state.progress.delete(token);
      session.send(message);
      return;
    }
    const token = (message.params as { progressToken?: string | number } | undefined)?.progressToken;
    const related =
      message.method === 'notifications/progress' && token !== undefined ? state.progress.get(token) : undefined;
    session.send(message, related);
  }

  private closed(session: AgentSession): void {
    const state = session.state as SessionState | undefined;
    if (!state) return;
    this.channels.delete(state.channel);
    void this.host.stop(state.channel);
  }
}
