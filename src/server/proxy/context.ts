import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { OutboundClient } from '../net/outboundClient';
import type { Recorder } from '../recording/recorder';
import type { ToolsListRewriter } from './messageTap';
import type { ProxyEvents } from './proxyEvents';
import type { UpstreamDirectory } from './upstreamDirectory';

/** What the proxy routes share. */
export interface ProxyContext {
  app: FastifyInstance;
  outbound: OutboundClient;
  directory: UpstreamDirectory;
  recorder: Recorder;
  events: ProxyEvents;
  /** Open server-push streams (GET and legacy SSE): ended on shutdown so they cannot hold it up. */
  pushStreams: Set<ServerResponse>;
  /** Looked up per exchange: the monitor may install it after the proxy. */
  rewriter(): ToolsListRewriter | undefined;
}
