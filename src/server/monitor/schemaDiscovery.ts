import type { FastifyInstance } from 'fastify';
import { noteOAuthChallenge, refusedAsUnauthorized } from '../upstreamOAuth/oauthRequirement';
import type { DiscoveryResultDto, SchemaVersionSource } from '../../contract/schemas';
import { decryptCredentials } from '../data/servers/credentials';
import type { ServerRow } from '../data/servers/mapper';
import { listSchemas, recordUpstreamDefinition, type RecordOutcome } from '../data/schemas/store';
import { refreshSchemaCount } from '../data/schemas/serverSchemas';
import { identityOf } from '../schemas/schemaIdentity';
import { assessDefinition } from '../schemas/risk/riskCheck';
import { otherServersToolNames } from '../data/schemas/riskContext';
import { raiseDriftAlert, raiseRiskAlert } from './schemaAlerts';
import { listUpstreamCatalogue, type CatalogueItem } from './upstreamCatalogue';
import { UpstreamCancelledError, withUpstreamClient } from './upstreamClient';
import { loadServerById, publishServerUpdated, transportOf } from './serverUpdates';
import { SeenDefinitions } from './seenDefinitions';
import type { ToolsListRewriter } from './toolsListRewriter';

// Schema discovery and drift detection. Discovery lists what an upstream offers and stores each
// item as a schema (version 1 when new). Whenever a definition is seen again — re-discovery, a
// tools/list passing through the proxy, a list_changed notification — and differs from the
// latest stored one, a new version with its RFC 6902 patch is stored, the schema is flagged
// drifted and the workspace gets a security_alert: a tool that rewrites its own description
// after it was trusted is how a "rug pull" hides instructions from the user. Every definition
// stored goes through the risk check (docs/security.md): a change that adds a high finding is
// held (the previous version pinned) and raises a tool_risk alert instead.
export class ServerNotFoundError extends Error {}

/** The upstream could not be listed (unreachable, refused, timed out); `cause` says why. */
export class UpstreamListingError extends Error {}

/** Coalesces a burst of list_changed notifications into one re-discovery. */
export const LIST_CHANGED_DEBOUNCE_MS = 250;
const DISCOVERY_TIMEOUT_MS = 30_000;

export class SchemaDiscovery {
  /** One discovery/record run per server at a time (in this instance; rows are locked across instances). */
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly listChangedTimers = new Map<string, NodeJS.Timeout>();
  private readonly background = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private readonly seen = new SeenDefinitions();
  private closed = false;

  constructor(
    private readonly app: FastifyInstance,
    private readonly rewriter: ToolsListRewriter,
  ) {}

  /** Lists the upstream now and records every item. Rejects when the upstream cannot be listed. */
  async discover(serverId: string): Promise<DiscoveryResultDto> {
    return this.serialized(serverId, async () => {
      const server = await loadServerById(this.app, serverId);
      if (!server) throw new ServerNotFoundError(`Server ${serverId} not found`);
      // Only a failure of the upstream itself is the caller's to read; a failure to store what
      // it listed is ours and stays a generic 5xx.
      const items = await withUpstreamClient(
        {
          url: server.url,
          transport: transportOf(server),
          headers: await this.app.upstreamTokens.headersFor(
            server.id,
            await this.app.workspaceKeys.headersFor(
              server.workspace_id,
              decryptCredentials(server.credentials_enc, this.app.config.secret),
              server.url,
            ),
          ),
        },
        this.app.outbound.fetch,
        Math.min(DISCOVERY_TIMEOUT_MS, this.app.config.upstreamTimeoutMs),
        listUpstreamCatalogue,
        this.shutdown.signal,
      ).catch(async (error: unknown) => {
        if (refusedAsUnauthorized(error)) await noteOAuthChallenge(this.app, server);
        throw new UpstreamListingError('upstream listing failed', { cause: error });
      });
      const outcomes = await this.record(server, items, 'discovery');
      const schemas = await listSchemas(this.app.db, server.workspace_id, server.id);
      return {
        serverId: server.id,
        discovered: items.length,
        created: outcomes.filter((o) => o.kind === 'created').length,
        changed: outcomes.filter((o) => o.kind === 'changed').length,
        schemaCount: schemas.length,
        schemas,
      };
    });
  }

  /**
   * Registration calls this: discovery runs after the response; failures are only logged. A
   * server never health-checked yet gets its first check right after, so a new server shows
   * online or offline within seconds instead of after a whole health interval.
   */
  discoverInBackground(serverId: string): void {
    if (this.closed) return;
    const task: Promise<void> = this.discover(serverId)
      .catch((error: unknown) => {
        const cancelled = error instanceof UpstreamListingError && error.cause instanceof UpstreamCancelledError;
        if (!(error instanceof ServerNotFoundError) && !cancelled)
          this.app.log.warn({ serverId, err: error }, 'schema discovery failed');
      })
      .then(() => this.checkIfNeverChecked(serverId))
      .catch((error: unknown) => this.app.log.warn({ serverId, err: error }, 'first health check failed'))
      .finally(() => this.background.delete(task));
    this.background.add(task);
  }

  /** Resolves when the background work started so far (discovery, first checks) has finished (tests). */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private async checkIfNeverChecked(serverId: string): Promise<void> {
    if (this.closed) return;
    const rows = await this.app.db.query<{ last_health_status: boolean | null }>(
      'select last_health_status from servers where id = $1',
      [serverId],
    );
    if (rows[0] && rows[0].last_health_status === null) await this.app.healthMonitor.checkNow(serverId);
  }

  /** A tools/list result seen through the proxy (the upstream's answer, before any rewrite). */
  async recordToolsList(serverId: string, tools: unknown): Promise<RecordOutcome[]> {
    if (this.closed || !Array.isArray(tools)) return [];
    const items: CatalogueItem[] = [];
    for (const tool of tools) {
      if (typeof tool !== 'object' || tool === null) continue;
      const definition = tool as Record<string, unknown>;
      const name = identityOf('tool', definition);
      if (name) items.push({ kind: 'tool', name, definition });
    }
    if (items.length === 0 || this.seen.allKnown(serverId, items)) return [];
    return this.serialized(serverId, async () => {
      const server = await loadServerById(this.app, serverId);
      if (!server) return [];
      return this.record(server, items, 'proxy');
    });
  }

  /** notifications/{tools,prompts,resources}/list_changed seen through the proxy: look again, soon. */
  scheduleRediscovery(serverId: string): void {
    if (this.closed) return;
    clearTimeout(this.listChangedTimers.get(serverId));
    const timer = setTimeout(() => {
      this.listChangedTimers.delete(serverId);
      this.discoverInBackground(serverId);
    }, LIST_CHANGED_DEBOUNCE_MS);
    timer.unref();
    this.listChangedTimers.set(serverId, timer);
  }

  /** Waits for the runs in flight (graceful shutdown, tests). */
  async close(): Promise<void> {
    this.closed = true;
    this.shutdown.abort();
    for (const timer of this.listChangedTimers.values()) clearTimeout(timer);
    this.listChangedTimers.clear();
    await Promise.allSettled([...this.running.values(), ...this.background]);
  }

  /** After a change through the API: recount, refresh the proxy's pins, tell the live streams. */
  async afterSchemasChanged(serverId: string, options: { pinsChanged: boolean }): Promise<void> {
    this.seen.forget(serverId);
    if (options.pinsChanged) await this.rewriter.pinsChanged(serverId);
    await refreshSchemaCount(this.app.db, serverId);
    const server = await loadServerById(this.app, serverId);
    if (server) publishServerUpdated(this.app, server);
  }

  private async record(
    server: ServerRow,
    items: CatalogueItem[],
    source: SchemaVersionSource,
  ): Promise<RecordOutcome[]> {
    const others = await otherServersToolNames(this.app.db, server.id);
    const assess = (definition: Record<string, unknown>) =>
      assessDefinition(definition, { otherServersToolNames: others });
    const outcomes = await this.app.db.transaction(async (tx) => {
      const out: RecordOutcome[] = [];
      for (const item of items) {
        out.push(
          await recordUpstreamDefinition(tx, {
            workspaceId: server.workspace_id,
            serverId: server.id,
            ...item,
            source,
            assess,
          }),
        );
      }
      return out;
    });
    for (const outcome of outcomes)
      if (outcome.schema.kind === 'tool') this.seen.remember(server.id, outcome.schema.name, outcome.schema.definition);
    const changed = outcomes.filter((o): o is Extract<RecordOutcome, { kind: 'changed' }> => o.kind === 'changed');
    // New and changed tools are new risk baselines for the proxy (and held ones new pins).
    if (outcomes.some((o) => o.kind !== 'unchanged' && o.schema.kind === 'tool'))
      await this.rewriter.pinsChanged(server.id);
    const count = await refreshSchemaCount(this.app.db, server.id);
    if (count.changed || changed.length > 0) {
      const after = await loadServerById(this.app, server.id);
      if (after) publishServerUpdated(this.app, after);
    }
    for (const outcome of outcomes) {
      if (outcome.kind === 'changed' && outcome.introduced.length > 0)
        await raiseRiskAlert(this.app, server, outcome.schema, outcome.introduced, {
          fromVersion: outcome.previousVersion,
          held: outcome.held,
          source,
        });
      else if (outcome.kind === 'changed')
        await raiseDriftAlert(this.app, server, outcome.schema, outcome.previousVersion, source);
      else if (outcome.kind === 'created' && outcome.schema.riskFindings.some((f) => f.severity === 'high'))
        await raiseRiskAlert(
          this.app,
          server,
          outcome.schema,
          outcome.schema.riskFindings.filter((f) => f.severity === 'high'),
          { fromVersion: null, held: false, source },
        );
    }
    return outcomes;
  }

  private serialized<T>(serverId: string, run: () => Promise<T>): Promise<T> {
    const previous = this.running.get(serverId) ?? Promise.resolve();
    const next = previous.then(run);
    const settled: Promise<void> = next.then(
      () => undefined,
      () => undefined,
    );
    this.running.set(serverId, settled);
    void settled.then(() => {
      if (this.running.get(serverId) === settled) this.running.delete(serverId);
    });
    return next;
  }
}
