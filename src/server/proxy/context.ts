import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { OutboundClient } from '../net/outboundClient';
import type { Recorder } from '../recording/recorder';
import type { Admission } from './admission';
import type { InboundBudget } from './inboundBudget';
import type { ToolsListRewriter } from './messageTap';
import type { ProxyEvents } from './proxyEvents';
import type { UpstreamDirectory } from './upstreamDirectory';
import type { AgentAccess } from './agentAccess';
import type { QuotaGate } from './quotaGate';
import type { WorkspaceKeyResolver } from './workspaceKeyResolver';
import type { SessionSeal } from './sessionSeal';
import type { SessionOrder } from './sessionOrder';
import type { UpstreamTokens } from '../upstreamOAuth/upstreamTokens';

/** What the proxy routes share. */
/** Which Host names the proxy answers under (browserAccess.ts); null = any. */
export type HostRule = ((hostName: string) => boolean) | null;

export interface ProxyContext {
  app: FastifyInstance;
  outbound: OutboundClient;
  directory: UpstreamDirectory;
  recorder: Recorder;
  /** Seals the session ids handed to agents (any instance serves any session). */
  sessionSeal: SessionSeal;
  /** A session's GET stream reaches the upstream before its later requests. */
  sessionOrder: SessionOrder;
  /** Calls in flight per workspace and server, streams per session. */
  admission: Admission;
  /** Request bytes per workspace and second, checked before a body is parsed. */
  inbound: InboundBudget;
  events: ProxyEvents;
  /** Open server-push streams (GET and legacy SSE): ended on shutdown so they cannot hold it up. */
  pushStreams: Set<ServerResponse>;
  /** Platform keys and the workspaces that require one (memory). */
  access: AgentAccess;
  /** The monthly agent-call quota (one shared counter per account). */
  quota: QuotaGate;
  /** `{{key:NAME}}` in upstream headers. */
  workspaceKeys: WorkspaceKeyResolver;
  /** Access tokens of servers that require OAuth (refreshed as they expire or are refused). */
  upstreamTokens: UpstreamTokens;
  /** The Host names the proxy answers under (browserAccess.ts); null = any. */
  allowedHosts: HostRule;
  /** Looked up per exchange: the monitor may install it after the proxy. */
  rewriter(): ToolsListRewriter | undefined;
}
