import type { Queryable } from '../../db/database';
import type { DashboardOverview } from '../../../contract/dashboard';
import { toToolCallDto, type ToolCallRow } from '../sessions/mappers';
import { TOOL_CALL_COLUMNS } from '../../recording/storedCallSql';
import { percentileFromHistogram } from './durationPercentile';
import { sumHistograms } from './usageHistogram';

// The dashboard's numbers. Volumes and latency come from the minute rollups (cheap at any
// traffic); counts of sessions and the latest calls from their indexed tables.

const LATEST_ACTIVITY = 10;

export async function workspaceOverview(db: Queryable, workspaceId: string, since: Date): Promise<DashboardOverview> {
  const sinceIso = since.toISOString();
  // Rollups are per minute: a minute that began before `since` but holds calls after it counts.
  const rollupWhere = `where u.workspace_id = $1 and u.bucket >= date_trunc('minute', $2::timestamptz)`;
  const [servers, sessions, usage, histograms, latest, lastSessionEvent] = await Promise.all([
    db.query<{ total: number; online: number }>(
      `select count(*)::int as total, (count(*) filter (where status = 'online'))::int as online from servers where workspace_id = $1`,
      [workspaceId],
    ),
    db.query<{ today: number; active: number }>(
      `select (count(*) filter (where started_at >= $2))::int as today, (count(*) filter (where status = 'active'))::int as active
       from sessions where workspace_id = $1`,
      [workspaceId, sinceIso],
    ),
    db.query<{ calls: number; errors: number; tokens: number; duration_max: number | null }>(
      `select coalesce(sum(u.calls), 0)::int as calls, coalesce(sum(u.errors), 0)::int as errors,
              coalesce(sum(u.tokens), 0)::float8 as tokens, max(u.duration_max_ms)::int as duration_max
       from usage_minutes u ${rollupWhere}`,
      [workspaceId, sinceIso],
    ),
    sumHistograms(db, { groupBy: null, where: rollupWhere, params: [workspaceId, sinceIso] }),
    db.query<ToolCallRow>(
      `select ${TOOL_CALL_COLUMNS} from tool_calls tc join servers srv on srv.id = tc.server_id
       where tc.workspace_id = $1 order by tc.started_at desc, tc.id desc limit ${LATEST_ACTIVITY}`,
      [workspaceId],
    ),
    db.query<{ at: Date | string | null }>(
      `select greatest(
         (select max(started_at) from sessions where workspace_id = $1),
         (select max(ended_at) from sessions where workspace_id = $1 and ended_at is not null)) as at`,
      [workspaceId],
    ),
  ]);
  const serverCounts = servers[0] ?? { total: 0, online: 0 };
  const calls = usage[0]?.calls ?? 0;
  const errors = usage[0]?.errors ?? 0;
  const latestActivity = latest.map(toToolCallDto);
  const lastActivityAt = latestTime([
    lastSessionEvent[0]?.at ?? null,
    latestActivity[0]?.endedAt ?? null,
    latestActivity[0]?.startedAt ?? null,
  ]);
  return {
    since: sinceIso,
    servers: { total: serverCounts.total, online: serverCounts.online, offline: serverCounts.total - serverCounts.online },
    sessions: { today: sessions[0]?.today ?? 0, active: sessions[0]?.active ?? 0 },
    toolCalls: { today: calls, errors, tokens: Math.round(usage[0]?.tokens ?? 0) },
    errorRate: calls === 0 ? 0 : Math.round((errors / calls) * 10_000) / 10_000,
    latencyP95Ms: percentileFromHistogram(histograms.get('') ?? [], 0.95, usage[0]?.duration_max ?? 0),
    latestActivity,
    lastActivityAt,
  };
}

function latestTime(times: (Date | string | null)[]): string | null {
  const millis = times.filter((t): t is Date | string => t !== null).map((t) => new Date(t).getTime());
  return millis.length ? new Date(Math.max(...millis)).toISOString() : null;
}
