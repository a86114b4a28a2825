import type { FastifyBaseLogger } from 'fastify';
import { LiveMessageTypes, type LiveMessage } from '../../../contract/live';
import { ToolCallDto } from '../../../contract/sessions';
import type { Queryable } from '../../db/database';
import type { EventBus } from '../../events/bus';
import type { NotificationService } from '../NotificationService';
import type { NotificationSettingsStore } from '../NotificationSettingsStore';

// session_alert (error rate) and performance_warning (p95 latency), judged per session in memory
// from the 'tool_call' messages of the bus. A session is judged once it has sessionMinCalls
// finished calls; each condition alerts when crossed and re-arms when the session recovers.
const DURATIONS_KEPT = 200;
const MAX_SESSIONS = 10_000;
const IDLE_EVICT_MS = 60 * 60_000;

const FinishedCall = ToolCallDto.pick({
  sessionId: true,
  serverId: true,
  serverName: true,
  status: true,
  durationMs: true,
});

interface SessionStats {
  workspaceId: string;
  serverId: string;
  serverName: string | null;
  calls: number;
  errors: number;
  /** The latest durations (ring of DURATIONS_KEPT), for the p95. */
  durations: number[];
  lastSeen: number;
  errorRateAlerted: boolean;
  latencyAlerted: boolean;
  /** Whether the p95 was computed since the session reached the minimum number of calls. */
  latencyJudged: boolean;
}

export interface SessionHealthMonitorDeps {
  bus: EventBus;
  db: Queryable;
  notifications: NotificationService;
  settings: NotificationSettingsStore;
  clock?: () => Date;
  log?: FastifyBaseLogger;
}

export class SessionHealthMonitor {
  /** Insertion order is recency order: a seen session is moved to the end. */
  private readonly sessions = new Map<string, SessionStats>();
  private unsubscribe: (() => void) | undefined;
  private readonly pending = new Set<Promise<void>>();
  private readonly clock: () => Date;

  constructor(private readonly deps: SessionHealthMonitorDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  start(): void {
    this.unsubscribe ??= this.deps.bus.subscribeAll((workspaceId, message) => this.onMessage(workspaceId, message));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.idle();
  }

  /** Resolves when every evaluation started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private onMessage(workspaceId: string, message: LiveMessage): void {
    if (message.type === LiveMessageTypes.sessionEnded) {
      const id = (message.data as { id?: unknown } | null)?.id;
      if (typeof id === 'string') this.sessions.delete(id);
      return;
    }
    if (message.type !== LiveMessageTypes.toolCall) return;
    const parsed = FinishedCall.safeParse(message.data);
    if (!parsed.success || parsed.data.status === 'pending') return;
    const call = parsed.data;
    const stats = this.record(workspaceId, call);
    const evaluation = this.evaluate(call.sessionId, stats, call.durationMs)
      .catch((error: unknown) => this.deps.log?.error({ err: error }, 'session health evaluation failed'))
      .finally(() => this.pending.delete(evaluation));
    this.pending.add(evaluation);
  }

  private record(
    workspaceId: string,
    call: {
      sessionId: string;
      serverId: string;
      serverName?: string | null;
      status: string;
      durationMs: number | null;
    },
  ): SessionStats {
    const now = this.clock().getTime();
    let stats = this.sessions.get(call.sessionId);
    if (stats) this.sessions.delete(call.sessionId);
    else
      stats = {
        workspaceId,
        serverId: call.serverId,
        serverName: null,
        calls: 0,
        errors: 0,
        durations: [],
        lastSeen: now,
        errorRateAlerted: false,
        latencyAlerted: false,
        latencyJudged: false,
      };
    stats.serverName = call.serverName ?? stats.serverName;
    stats.calls += 1;
    if (call.status === 'error') stats.errors += 1;
    if (call.durationMs !== null) {
      if (stats.durations.length >= DURATIONS_KEPT) stats.durations.shift();
      stats.durations.push(call.durationMs);
    }
    stats.lastSeen = now;
    this.sessions.set(call.sessionId, stats);
    this.evictStale(now);
    return stats;
  }

  private evictStale(now: number): void {
    for (const [id, stats] of this.sessions) {
      if (this.sessions.size <= MAX_SESSIONS && now - stats.lastSeen < IDLE_EVICT_MS) break;
      this.sessions.delete(id);
    }
  }

  private async evaluate(sessionId: string, stats: SessionStats, latestDurationMs: number | null): Promise<void> {
    const settings = await this.deps.settings.get(stats.workspaceId);
    if (stats.calls < settings.sessionMinCalls) return;
    const errorRatePercent = (stats.errors / stats.calls) * 100;
    const errorRateHigh = errorRatePercent >= settings.sessionErrorRatePercent;
    // A fast call cannot lift the p95 over the threshold, so the sort is skipped on the common
    // path; it runs on the first judgement, for slow calls, and while alerted (to notice recovery).
    const mayCrossLatency =
      !stats.latencyJudged ||
      stats.latencyAlerted ||
      (latestDurationMs !== null && latestDurationMs >= settings.sessionP95LatencyMs);
    stats.latencyJudged = true;
    const p95 = mayCrossLatency ? percentile95(stats.durations) : null;
    const latencyHigh = p95 !== null && p95 >= settings.sessionP95LatencyMs;
    // Flags flip before any await so concurrent evaluations of one session raise once.
    const raiseErrorRate = errorRateHigh && !stats.errorRateAlerted;
    const raiseLatency = latencyHigh && !stats.latencyAlerted;
    stats.errorRateAlerted = errorRateHigh;
    stats.latencyAlerted = latencyHigh;
    if (!raiseErrorRate && !raiseLatency) return;

    const serverName = stats.serverName ?? (await this.serverName(stats.serverId));
    const common = { sessionId, serverId: stats.serverId, serverName, calls: stats.calls, errors: stats.errors };
    if (raiseErrorRate) {
      await this.deps.notifications.raise({
        workspaceId: stats.workspaceId,
        type: 'session_alert',
        severity: 'error',
        title: 'High Session Error Rate',
        message: `${stats.errors} of ${stats.calls} tool calls failed (${Math.round(errorRatePercent)}%) in a session on ${serverName}; the threshold is ${settings.sessionErrorRatePercent}%`,
        actionUrl: `/sessions/${sessionId}`,
        metadata: {
          ...common,
          errorRatePercent: Math.round(errorRatePercent * 10) / 10,
          thresholdPercent: settings.sessionErrorRatePercent,
        },
        groupKey: `session:${sessionId}:error-rate`,
      });
    }
    if (raiseLatency) {
      await this.deps.notifications.raise({
        workspaceId: stats.workspaceId,
        type: 'performance_warning',
        severity: 'warning',
        title: 'Slow Session',
        message: `Tool calls in a session on ${serverName} take ${p95} ms at the 95th percentile; the threshold is ${settings.sessionP95LatencyMs} ms`,
        actionUrl: `/sessions/${sessionId}`,
        metadata: { ...common, p95LatencyMs: p95, thresholdMs: settings.sessionP95LatencyMs },
        groupKey: `session:${sessionId}:latency`,
      });
    }
  }

  private async serverName(serverId: string): Promise<string> {
    const rows = await this.deps.db.query<{ name: string }>('select name from servers where id = $1', [serverId]);
    return rows[0]?.name ?? 'a tool server';
  }
}

/** Nearest-rank 95th percentile; null without samples. */
export function percentile95(samples: readonly number[]): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1];
}
