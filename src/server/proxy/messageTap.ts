import type { MessageDirection } from '../../contract/sessions';
import type { Recorder, RecordedSession } from '../recording/recorder';
import { hasId, idKey, type JsonRpcMessage } from './jsonRpc';
import type { ProxyEvents } from './proxyEvents';
import { metaTraceparent } from '../telemetry/proxySpanContext';
import type { UpstreamTarget } from './upstreamDirectory';

// Everything the proxy does with a message besides forwarding it: record it, tell the monitor
// about tool lists and list changes, and let the monitor swap a tools/list result for the
// pinned one. One tap per HTTP exchange (or per legacy SSE stream).
export interface ToolsListRewriter {
  rewrite(serverId: string, result: unknown): unknown;
  /** When present and false, tools/list answers of that server stream through untouched. */
  mayRewrite?(serverId: string): boolean;
}

const LIST_CHANGED = /^notifications\/(tools|prompts|resources)\/list_changed$/;

export class MessageTap {
  /** Requests of this exchange by id → method (to recognise their responses). */
  private readonly requestMethods = new Map<string, string>();

  constructor(
    private readonly target: UpstreamTarget,
    private readonly recorder: Recorder,
    private readonly events: ProxyEvents,
    private readonly rewriter: ToolsListRewriter | undefined,
    public session: RecordedSession | null = null,
  ) {}

  /**
   * Requests other than tools/call by id → when they left and their trace context, for their span.
   * Made only when telemetry listens and such a request passes: not a Map per exchange for nothing.
   */
  private requestSpans?: Map<string, { startedMs: number; traceparent: string | null }>;

  /** `httpTraceparent`: the agent's `traceparent` HTTP header (its requests' trace context when `_meta` has none). */
  expectRequests(requests: (JsonRpcMessage & { id: string | number })[], httpTraceparent?: string): void {
    const announce = this.events.listenerCount('mcp_request') > 0;
    for (const request of requests) {
      this.requestMethods.set(idKey(request.id), request.method as string);
      if (announce && request.method !== 'tools/call')
        (this.requestSpans ??= new Map()).set(idKey(request.id), {
          startedMs: Date.now(),
          traceparent: metaTraceparent(request.params) ?? httpTraceparent ?? null,
        });
    }
  }

  private announceAnswer(key: string, method: string | undefined, message: JsonRpcMessage): void {
    const span = this.requestSpans?.get(key);
    if (!span || !method) return;
    this.requestSpans?.delete(key);
    const row = this.session?.row;
    const error = message.error as { code?: unknown; message?: unknown } | undefined;
    this.events.emit('mcp_request', {
      workspaceId: this.target.workspaceId,
      serverId: this.target.serverId,
      serverUrl: this.target.url,
      sessionId: row?.id ?? null,
      mcpSessionId: row?.mcp_session_id ?? null,
      transport: row?.transport ?? null,
      sessionStartedAt: row?.started_at ?? null,
      protocolVersion: row?.protocol_version ?? null,
      clientName: row?.client_name ?? null,
      method,
      jsonrpcId: key.slice(2),
      traceparent: span.traceparent,
      startedMs: span.startedMs,
      endedMs: Date.now(),
      errorCode: error && typeof error.code === 'number' ? error.code : null,
      // Redacted like everything of the traffic kept (it becomes a span's status message).
      errorMessage:
        error && typeof error.message === 'string'
          ? this.recorder.redactText(this.target.workspaceId, error.message)
          : null,
    });
  }

  /** True when a response of this exchange may be rewritten (so it must be handled whole). */
  get rewritesToolsList(): boolean {
    if (!this.rewriter || this.rewriter.mayRewrite?.(this.target.serverId) === false) return false;
    for (const method of this.requestMethods.values()) if (method === 'tools/list') return true;
    return false;
  }

  /**
   * True when this exchange's answers matter beyond being forwarded: recorded (recording on, a
   * session), announced (a span waits for them), or a tools/list answer (its tools are announced;
   * it may be rewritten). Otherwise fromServer() would do nothing for a response, and a JSON answer
   * need not be decoded and parsed (responseRelay.ts) — only a list_changed notification matters then.
   */
  get answersObserved(): boolean {
    if (this.session && this.recorder.isEnabled()) return true;
    if (this.requestSpans?.size) return true;
    for (const method of this.requestMethods.values()) if (method === 'tools/list') return true;
    return false;
  }

  unanswered(): (string | number)[] {
    const ids: (string | number)[] = [];
    for (const key of this.requestMethods.keys()) ids.push(key.startsWith('n:') ? Number(key.slice(2)) : key.slice(2));
    return ids;
  }

  /**
   * `size`: the message's bytes, or how to measure them (only when it is stored: see
   * Recorder.record). A large message may be recorded later, once redacted off the event loop:
   * commitJournal() waits for it. `httpTraceparent`: as for expectRequests (a request's only).
   */
  record(
    direction: MessageDirection,
    message: JsonRpcMessage,
    size: number | (() => number),
    rawText?: string,
    atMs?: number,
    httpTraceparent?: string,
  ): void {
    if (this.session && this.recorder.isEnabled())
      this.recorder.record(
        this.session,
        direction,
        message,
        size,
        rawText,
        atMs,
        direction === 'client_to_server' ? httpTraceparent : undefined,
      );
  }

  /**
   * What the recorder journaled so far goes to the kernel now (see Recorder.commitJournal); a
   * promise when this session's messages so far are not all recorded yet: an answer waits for it.
   */
  commitJournal(): Promise<void> | undefined {
    return this.recorder.commitJournal(this.session ?? undefined);
  }

  /**
   * A message from the upstream: recorded, announced, and — for a tools/list result when a
   * rewriter is installed — possibly replaced. Returns the message to send on.
   */
  fromServer(received: JsonRpcMessage, sizeBytes: number, receivedText?: string): JsonRpcMessage {
    const only = this.onlyUnanswered(received);
    // A JSON-RPC error whose id is null is the server's answer to a request it could not tell
    // (JSON-RPC 2.0 §5: a session it no longer knows, a body it could not parse). With one request
    // of this exchange unanswered, it is that request's answer: paired with it by that id, and
    // stored as the agent received it (its text, id null) — not a failure the proxy makes up.
    const message = only === undefined ? received : { ...received, id: only };
    const rawText = only === undefined ? receivedText : (receivedText ?? JSON.stringify(received));
    let outgoing = message;
    if (hasId(message) && message.method === undefined) {
      const key = idKey(message.id);
      const mayRewrite = this.rewritesToolsList;
      const method = this.requestMethods.get(key);
      this.requestMethods.delete(key);
      if (this.requestSpans?.size) this.announceAnswer(key, method, message);
      if (method === 'tools/list' && message.result && typeof message.result === 'object') {
        const result = message.result as { tools?: unknown; nextCursor?: unknown; cacheScope?: unknown };
        // A result marked `cacheScope: "private"` (2026-07-28) is for the caller that got it: it
        // never enters the server's schema store, whose definitions every agent may be served
        // (pins, the risk check's held definitions) and every member sees (docs/proxy.md).
        if (Array.isArray(result.tools) && result.cacheScope !== 'private') {
          this.events.emit('tools_list', {
            workspaceId: this.target.workspaceId,
            serverId: this.target.serverId,
            tools: result.tools,
            ...(typeof result.nextCursor === 'string' ? { nextCursor: result.nextCursor } : {}),
          });
        }
        const rewritten = mayRewrite ? this.rewriter?.rewrite(this.target.serverId, message.result) : undefined;
        if (rewritten !== undefined && rewritten !== message.result) outgoing = { ...message, result: rewritten };
      }
    } else if (typeof message.method === 'string') {
      const changed = LIST_CHANGED.exec(message.method);
      if (changed) {
        this.events.emit('list_changed', {
          workspaceId: this.target.workspaceId,
          serverId: this.target.serverId,
          kind: changed[1] as 'tools' | 'prompts' | 'resources',
        });
      }
    }
    // What is recorded is what the agent received. A response that waits for its redaction is
    // recorded in its session's order; the agent does not wait for it.
    this.record(
      'server_to_client',
      outgoing,
      outgoing === message ? sizeBytes : Buffer.byteLength(JSON.stringify(outgoing)),
      outgoing === message ? rawText : undefined,
    );
    return outgoing === message ? received : outgoing;
  }

  /** The id of this exchange's one unanswered request, when `message` is an error answer with a null id. */
  private onlyUnanswered(message: JsonRpcMessage): string | number | undefined {
    if (message.id !== null || message.error === undefined || message.method !== undefined) return undefined;
    if (this.requestMethods.size !== 1) return undefined;
    return this.unanswered()[0];
  }
}
