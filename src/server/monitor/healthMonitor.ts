import type { FastifyInstance } from 'fastify';
import type { ServerStatus } from '../../contract/servers';
import { decryptCredentials } from '../data/servers/credentials';
import type { ServerRow } from '../data/servers/mapper';
import { describeUpstreamError, UpstreamCancelledError, withUpstreamClient } from './upstreamClient';
import { loadServerById, publishServerChecked, publishServerUpdated, transportOf } from './serverUpdates';

// Every config.healthIntervalMs each registered server gets a bounded MCP probe (initialize +
// ping through the guarded outbound client). The outcome is stored on the server; a change of
// health raises a tool_server_status notification (stored for every member and pushed live)
// and pushes the server itself as server_updated. With several instances on one PostgreSQL a
// round runs under a transaction-scoped advisory lock, so one instance probes while the others
// skip, and servers checked recently (e.g. by checkNow) wait for the next round.
export interface HealthCheckOutcome {
  healthy: boolean;
  latencyMs: number | null;
  error: string | null;
}

const ROUND_LOCK_ID = 7_373_101;
const PROBE_TIMEOUT_MS = 10_000;
/** Probes at once: enough to keep a round short, few enough not to flood the machine. */
const ROUND_CONCURRENCY = 8;

interface RecordedHealth {
  row: ServerRow;
  previousHealth: boolean | null;
}

export class HealthMonitor {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): a round in flight starts no further probes. */
  private closing = false;
  /** Aborts probes in flight when the app closes (a hanging upstream must not delay shutdown). */
  private shutdown: AbortController | undefined;

  constructor(private readonly app: FastifyInstance) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.closing = false;
    this.shutdown = new AbortController();
    this.schedule();
  }

  /** Stops the timer and waits for the round in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    this.shutdown?.abort();
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.round;
  }

  /** Probes one server now (POST …/servers/{id}/health) and records the outcome like a round does. */
  async checkNow(serverId: string): Promise<HealthCheckOutcome> {
    const row = await loadServerById(this.app, serverId);
    if (!row) return { healthy: false, latencyMs: null, error: 'Server not found' };
    return this.checkServer(row);
  }

  /** One round over every server due for a check (the timer calls it; tests may too). */
  async runRound(): Promise<void> {
    if (this.round) return this.round;
    this.round = this.lockedRound().finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.runRound()
        .catch((error: unknown) => this.app.log.error({ err: error }, 'health round failed'))
        .finally(() => this.schedule());
    }, this.app.config.healthIntervalMs);
    this.timer.unref();
  }

  private async lockedRound(): Promise<void> {
    if (this.app.db.engine !== 'postgres') return this.probeDueServers();
    // The transaction only holds the lock (released at commit, even if this instance dies).
    await this.app.db.transaction(async (tx) => {
      const [{ locked }] = await tx.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [
        ROUND_LOCK_ID,
      ]);
      if (locked) await this.probeDueServers();
    });
  }

  private async probeDueServers(): Promise<void> {
    // "Due": not checked within most of an interval (another instance or checkNow may have just done it).
    const dueAfterMs = Math.floor(this.app.config.healthIntervalMs * 0.8);
    const rows = await this.app.db.query<ServerRow>(
      `select id, workspace_id, name, url, description, transport, proxy_key, credentials_enc, status,
              last_health_status, last_checked, last_error, schema_count, risk_finding_count, kind, created_at, updated_at
         from servers
        where last_checked is null or last_checked < now() - make_interval(secs => $1::double precision / 1000)
        order by last_checked nulls first`,
      [dueAfterMs],
    );
    let next = 0;
    const worker = async () => {
      while (next < rows.length && !this.closing) {
        const row = rows[next++];
        await this.checkServer(row).catch((error: unknown) =>
          this.app.log.error({ err: error, serverId: row.id }, 'health check failed'),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(ROUND_CONCURRENCY, rows.length) }, worker));
  }

  private async checkServer(row: ServerRow): Promise<HealthCheckOutcome> {
    const outcome = await this.probe(row);
    // Interrupted by shutdown: says nothing about the server, so nothing is recorded.
    if (!outcome) return { healthy: false, latencyMs: null, error: 'Cancelled: Toolscope is shutting down' };
    const recorded = await this.record(row.id, outcome);
    if (recorded) await this.announceChange(recorded, outcome);
    return outcome;
  }

  private async probe(row: ServerRow): Promise<HealthCheckOutcome | undefined> {
    const started = performance.now();
    try {
      await withUpstreamClient(
        {
          url: row.url,
          transport: transportOf(row),
          headers: await this.app.upstreamTokens.headersFor(
            row.id,
            await this.app.workspaceKeys.headersFor(
              row.workspace_id,
              decryptCredentials(row.credentials_enc, this.app.config.secret),
              row.url,
            ),
          ),
        },
        this.app.outbound.fetch,
        Math.min(PROBE_TIMEOUT_MS, this.app.config.upstreamTimeoutMs),
        async (session) => {
          await session.client.ping({ timeout: session.remainingMs() });
        },
        this.shutdown?.signal,
      );
      return { healthy: true, latencyMs: Math.round(performance.now() - started), error: null };
    } catch (error) {
      if (error instanceof UpstreamCancelledError) return undefined;
      return { healthy: false, latencyMs: null, error: describeUpstreamError(error) };
    }
  }

  /** Stores the outcome; returns the row after it and the health before it (undefined if deleted meanwhile). */
  private async record(serverId: string, outcome: HealthCheckOutcome): Promise<RecordedHealth | undefined> {
    const status: ServerStatus = outcome.healthy ? 'online' : 'offline';
    const rows = await this.app.db.query<ServerRow & { previous_health: boolean | null }>(
      `with before as (select id, last_health_status as previous_health from servers where id = $1 for update)
       update servers s
          set status = $2, last_health_status = $3, last_checked = now(), last_error = $4,
              updated_at = case when s.last_health_status is distinct from $3 then now() else s.updated_at end
         from before where s.id = before.id
       returning s.id, s.workspace_id, s.name, s.url, s.description, s.transport, s.proxy_key, s.credentials_enc, s.status,
                 s.last_health_status, s.last_checked, s.last_error, s.schema_count, s.risk_finding_count, s.kind, s.created_at, s.updated_at, before.previous_health`,
      [serverId, status, outcome.healthy, outcome.error],
    );
    const row = rows.at(0);
    if (!row) return undefined;
    const { previous_health: previousHealth, ...server } = row;
    return { row: server, previousHealth };
  }

  private async announceChange({ row, previousHealth }: RecordedHealth, outcome: HealthCheckOutcome): Promise<void> {
    if (previousHealth === outcome.healthy) {
      publishServerChecked(this.app, row);
      return;
    }
    publishServerUpdated(this.app, row);
    // A first check that finds the server up is not news; one that finds it down is.
    if (previousHealth === null && outcome.healthy) {
      this.discoverIfEmpty(row);
      return;
    }
    const status: ServerStatus = outcome.healthy ? 'online' : 'offline';
    try {
      await this.app.notifications.raise({
        workspaceId: row.workspace_id,
        type: 'tool_server_status',
        severity: outcome.healthy ? 'success' : 'error',
        title: outcome.healthy ? 'Server Online' : 'Server Offline',
        message: outcome.healthy
          ? `${row.name} is responding to health checks again`
          : `${row.name} is not responding to health checks${outcome.error ? ` (${outcome.error})` : ''}`,
        actionUrl: `/servers?serverId=${encodeURIComponent(row.id)}`,
        metadata: { serverId: row.id, status, serverName: row.name },
        groupKey: `tool_server_status:${row.id}:${status}`,
      });
    } catch (error) {
      this.app.log.error({ err: error, serverId: row.id }, 'could not raise the server status notification');
    }
    if (outcome.healthy) this.discoverIfEmpty(row);
  }

  /** A server that was down when registered gets its schemas once it answers. */
  private discoverIfEmpty(row: ServerRow): void {
    if (row.schema_count === 0 && this.app.hasDecorator('schemaDiscovery'))
      this.app.schemaDiscovery.discoverInBackground(row.id);
  }
}
