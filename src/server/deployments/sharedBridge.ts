import type { IncomingMessage, ServerResponse } from 'node:http';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { AgentSession, HttpSessions } from './httpSessions';
import type { JsonRpcObject, StdioChannel } from './stdioChannel';

// Several agent sessions on one stdio process. A stdio server expects one client, so the bridge
// is that client: it initializes the process itself (declaring no client capabilities — one
// process cannot ask "the" agent for sampling, roots or elicitation when there are several;
// per-session mode exists for servers that need them) and answers each agent's initialize with
// the process's own initialize result. Request ids are rewritten to ids unique on the process
// and back, progress tokens likewise, so two agents both sending id 1 never cross. Notifications
// not tied to a request (list_changed, log messages, resource updates) go to every session.
const NOT_RUNNING = -32010;

interface PendingRequest {
  session: AgentSession;
  agentId: string | number;
  progressToken?: string | number;
}

export class SharedBridge {
  private readonly sessions: HttpSessions;
  private channel: StdioChannel | null = null;
  private initializeResult: Record<string, unknown> | null = null;
  private readonly pending = new Map<number, PendingRequest>();
  private readonly progress = new Map<string, PendingRequest>();
  private nextId = 1;
  private notRunningReason = 'The deployment is starting';

  constructor(options: { idleMs: number; maxSessions: number }) {
    this.sessions = new HttpSessions(
      {
        message: (session, message) => this.fromAgent(session, message),
        closed: (session) => this.forgetSession(session),
      },
      options,
    );
  }

  get sessionCount(): number {
    return this.sessions.count;
  }

  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    return this.sessions.handle(req, res, body);
  }

  /**
   * Makes a freshly started process the one agents talk to: initializes it (rejects when it does
   * not answer within timeoutMs) and remembers its answer for every agent's initialize.
   */
  async attach(channel: StdioChannel, timeoutMs: number, clientVersion: string): Promise<void> {
    const initId = `toolscope-initialize-${this.nextId++}`;
    const answered = new Promise<JsonRpcObject>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The program did not answer initialize within ${timeoutMs} ms`)),
        timeoutMs,
      );
      void channel.program.exited.then(() => {
        clearTimeout(timer);
        reject(new Error('The program exited before it answered initialize'));
      });
      channel.onMessage = (message) => {
        if (message.id === initId && message.method === undefined) {
          clearTimeout(timer);
          resolve(message);
        }
      };
    });
    channel.send({
      jsonrpc: '2.0',
      id: initId,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'toolscope-deployment-bridge', version: clientVersion },
      },
    });
    const answer = (await answered) as { result?: Record<string, unknown>; error?: { message?: string } };
    if (!answer.result) throw new Error(`The program refused initialize: ${answer.error?.message ?? 'no result'}`);
    this.initializeResult = answer.result;
    channel.onMessage = (message) => this.fromProcess(channel, message);
    channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    this.channel = channel;
  }

  /** The process is gone (or stopping): requests in flight get an error, new ones are refused. */
  detach(reason: string): void {
    this.channel = null;
    this.notRunningReason = reason;
    for (const [, request] of this.pending)
      this.answerError(request.session, request.agentId, `${reason}; the request was not answered`);
    this.pending.clear();
    this.progress.clear();
  }

  async close(): Promise<void> {
    this.detach('The deployment stopped');
    await this.sessions.closeAll();
  }

  private fromAgent(session: AgentSession, message: JsonRpcObject): void {
    session.lastSeen = Date.now();
    const agentId = message.id;
    if (message.method !== undefined && agentId !== undefined) {
      if (message.method === 'initialize') {
        if (this.initializeResult)
          session.send({
            jsonrpc: '2.0',
            id: agentId,
            result: { ...this.initializeResult, protocolVersion: this.versionFor(message.params) },
          });
        else this.answerError(session, agentId, this.notRunningReason);
        return;
      }
      if (!this.channel) {
        this.answerError(session, agentId, this.notRunningReason);
        return;
      }
      const processId = this.nextId++;
      const request: PendingRequest = { session, agentId };
      const params = message.params as { _meta?: { progressToken?: string | number } } | undefined;
      let forwarded: JsonRpcObject = { ...message, id: processId };
      if (params?._meta?.progressToken !== undefined) {
        request.progressToken = params._meta.progressToken;
        const token = `toolscope-progress-${processId}`;
        this.progress.set(token, request);
        forwarded = {
          ...forwarded,
          params: { ...params, _meta: { ...params._meta, progressToken: token } },
        };
      }
      this.pending.set(processId, request);
      this.channel.send(forwarded);
      return;
    }
    if (message.method === undefined) return; // an answer to a server request: none are forwarded in shared mode
    if (message.method === 'notifications/initialized') return; // the bridge sent the process its own
    if (message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: string | number } | undefined)?.requestId;
      for (const [processId, request] of this.pending) {
        if (request.session === session && request.agentId === requestId) {
          this.channel?.send({ ...message, params: { ...message.params, requestId: processId } });
          return;
        }
      }
      return;
    }
    this.channel?.send(message);
  }

  private fromProcess(channel: StdioChannel, message: JsonRpcObject): void {
    if (message.method === undefined) {
      const request = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (!request) return;
      this.pending.delete(message.id as number);
      if (request.progressToken !== undefined) this.progress.delete(`toolscope-progress-${message.id}`);
      request.session.send({ ...message, id: request.agentId });
      return;
    }
    if (message.id !== undefined) {
      // The process asks its client something: only ping can be answered for several agents.
      if (message.method === 'ping') channel.send({ jsonrpc: '2.0', id: message.id, result: {} });
      else
        channel.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: 'Not available through a shared deployment (use one process per session)' },
        });
      return;
    }
    const params = message.params as { progressToken?: string | number } | undefined;
    if (message.method === 'notifications/progress' && params?.progressToken !== undefined) {
      const request = this.progress.get(String(params.progressToken));
      if (request)
        request.session.send(
          { ...message, params: { ...params, progressToken: request.progressToken } },
          request.agentId,
        );
      return;
    }
    if (message.method === 'notifications/cancelled') {
      const request = this.pending.get(Number((message.params as { requestId?: unknown } | undefined)?.requestId));
      if (request)
        request.session.send(
          { ...message, params: { ...message.params, requestId: request.agentId } },
          request.agentId,
        );
      return;
    }
    for (const session of this.sessions.all()) session.send(message);
  }

  /**
   * The version an agent's initialize is answered with: the one it asked for when the bridge
   * speaks it (the spec's negotiation — an SDK 1.10 client refuses any other answer), else the
   * process's own. The bridge talks to the process in the process's version; the messages the
   * versions share are what agents of older versions send.
   */
  private versionFor(params: unknown): unknown {
    const requested = (params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)) return requested;
    return this.initializeResult?.protocolVersion;
  }

  private answerError(session: AgentSession, id: string | number, text: string): void {
    session.send({ jsonrpc: '2.0', id, error: { code: NOT_RUNNING, message: text } });
  }

  private forgetSession(session: AgentSession): void {
    for (const [processId, request] of this.pending) if (request.session === session) this.pending.delete(processId);
    for (const [token, request] of this.progress) if (request.session === session) this.progress.delete(token);
  }
}
