import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Recorder } from '../recording/recorder';
import { DEFAULT_MIN_BYTES, RedactionThread } from '../recording/redaction/redactionThread';
import { WorkspaceRedaction } from '../recording/redaction/workspaceRedaction';
import { openRecordingJournal } from '../recording/journal/openRecordingJournal';
import { RecordingBudgets, WorkspacePlans } from '../recording/recordingBudget';
import type { ProxyContext } from './context';
import { Admission } from './admission';
import { SessionOrder, STREAM_ORDER_MAX_WAIT_MS } from './sessionOrder';
import { legacySseRoutes } from './legacySse';
import type { ToolsListRewriter } from './messageTap';
import { ProxyEvents } from './proxyEvents';
import { streamableHttpForward, streamableHttpRoutes } from './streamableHttp';
import { rawStreamableHttp } from './rawStreamableHttp';
import { hostRule, preflightRoutes } from './browserAccess';
import { UpstreamDirectory } from './upstreamDirectory';
import { AgentAccess } from './agentAccess';
import { QuotaGate } from './quotaGate';
import { InboundBudget } from './inboundBudget';
import { inboundGate } from './inboundGate';
import { SessionSeal } from './sessionSeal';
import { WorkspaceKeyResolver } from './workspaceKeyResolver';
import { UpstreamTokens } from '../upstreamOAuth/upstreamTokens';
import { AuthorizationServers } from '../upstreamOAuth/authorizationServer';

declare module 'fastify' {
  interface FastifyInstance {
    /** Records sessions, messages and tool calls off the hot path (stats() for health). */
    recorder: Recorder;
    /** Proxy key → upstream cache; the servers API forgets keys it changes. */
    upstreams: UpstreamDirectory;
    /** 'tools_list' and 'list_changed' as traffic passes (the monitor listens). */
    proxyEvents: ProxyEvents;
    /** Platform keys at the proxy; the keys and workspace APIs tell it what changed. */
    agentAccess: AgentAccess;
    /** Workspace key values for upstream headers; the keys API forgets what it changes. */
    workspaceKeys: WorkspaceKeyResolver;
    /** Access tokens of servers that require OAuth, for the proxy and the monitors. */
    upstreamTokens: UpstreamTokens;
    quotaGate: QuotaGate;
    /** Each workspace's redaction rules, in memory; the settings route tells it what changed. */
    redaction: WorkspaceRedaction;
  }
}

/**
 * Installs the MCP proxy at /mcp/{proxyKey} (outside /api: agents authenticate to their tool
 * server, not to Toolscope). Needs app.outbound. Its own scope keeps bodies as raw bytes — the
 * proxy forwards what the agent sent, not a re-serialization — under the proxy's own size limit.
 */
export async function installProxy(app: FastifyInstance): Promise<void> {
  const journal = await openRecordingJournal(app);
  const plans = new WorkspacePlans(app.db);
  // Loaded before the proxy serves: the first message of any workspace is redacted by its own rules.
  // Large messages are redacted on a thread of their own, so one does not hold every other call.
  const redactionThread = new RedactionThread(DEFAULT_MIN_BYTES, (error) =>
    app.log.error({ err: error }, 'the redaction thread failed: large messages are redacted inline meanwhile'),
  );
  const redaction = new WorkspaceRedaction(
    app.db,
    app.config.secret,
    (error) => app.log.error({ err: error }, 'reloading redaction settings failed'),
    redactionThread,
  );
  await redaction.start();
  app.decorate('redaction', redaction);
  const recorder = new Recorder(app.db, app.bus, {
    journal,
    redaction,
    journalMaxBytes: app.config.journalMaxBytes,
    budgets: new RecordingBudgets(plans.planOf),
    queueLimit: app.config.recorderQueueLimit,
    flushMs: app.config.recorderFlushMs,
    unansweredCallMs: app.config.unansweredCallMs,
    log: app.log,
  });
  // The sweep ends idle sessions and overdue calls: often enough that a call ends within a quarter of its bound.
  recorder.start(Math.max(250, Math.min(30_000, Math.floor(app.config.unansweredCallMs / 4))));
  app.decorate('recorder', recorder);
  app.decorate('upstreams', new UpstreamDirectory(app.db, app.config.secret, app.config.proxyKeyCacheMs));
  app.decorate('proxyEvents', new ProxyEvents());
  const access = new AgentAccess(app.db, app.log);
  const workspaceKeys = new WorkspaceKeyResolver(app.db, app.config.secret, app.log);
  access.onChange = (kind, id) => {
    if (kind === 'secrets') workspaceKeys.forget(id);
  };
  await access.start();
  app.decorate('agentAccess', access);
  app.decorate('workspaceKeys', workspaceKeys);
  const upstreamTokens = new UpstreamTokens(
    app.db,
    app.config.secret,
    new AuthorizationServers(app.outbound.fetch),
    app.log,
  );
  app.decorate('upstreamTokens', upstreamTokens);
  app.decorate('quotaGate', new QuotaGate(app.db, app.log));
  // Runs before the database closes (main.ts and the tests close the database after app.close()).
  app.addHook('onClose', async () => {
    await access.stop();
    await redaction.stop();
    // Calls admitted from memory are counted and unused leases given back while the database is there.
    await app.quotaGate.close();
    await recorder.close();
    await redactionThread.close();
    await app.outbound.close();
  });

  const pushStreams = new Set<ServerResponse>();
  // preClose runs before the server stops listening: an agent's open GET stream would otherwise
  // keep a graceful shutdown waiting; its client reconnects (to another instance) on its own.
  app.addHook('preClose', () => {
    for (const res of pushStreams) res.destroy();
    return Promise.resolve();
  });
  const ctx: ProxyContext = {
    app,
    pushStreams,
    outbound: app.outbound,
    directory: app.upstreams,
    recorder,
    sessionSeal: new SessionSeal(app.config.secret),
    sessionOrder: new SessionOrder(STREAM_ORDER_MAX_WAIT_MS, app.config.streamExpectMs),
    admission: new Admission(app.config),
    inbound: new InboundBudget(plans.planOf, app.config.proxyBodyLimitBytes),
    events: app.proxyEvents,
    access,
    quota: app.quotaGate,
    workspaceKeys,
    upstreamTokens,
    allowedHosts: hostRule(app.config),
    rewriter: () => (app as unknown as { toolsListRewriter?: ToolsListRewriter }).toolsListRewriter,
  };
  // One forward() for both paths: the raw one (real HTTP) and the Fastify routes (app.inject, closing).
  const forward = streamableHttpForward(ctx);
  app.rawRoutes.serve(rawStreamableHttp(ctx, forward));
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Before a body is read: a workspace past its inbound budget is refused unread (inboundGate.ts).
    scope.addHook('onRequest', inboundGate(ctx));
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: app.config.proxyBodyLimitBytes },
      (_request, body, done) => done(null, body),
    );
    await scope.register(streamableHttpRoutes(forward));
    await scope.register(legacySseRoutes(ctx));
    await scope.register(preflightRoutes(ctx));
  });
}
