import type { Queryable } from '../../db/database';
import type { DashboardOverview } from '../../../contract/dashboard';
import { toToolCallDto, type ToolCallRow } from '../../data/sessions/mappers';
import { TOOL_CALL_COLUMNS } from '../../recording/storedCallSql';
import { analyticsContext } from '../analytics/analyticsContext';
import { rangeTotals } from '../analytics/overviewStore';

// The dashboard's numbers. Calls, errors, sessions, tokens and p95 of "today" are the analytics
// totals of [since, now) — the same rollups read by the same code as /analytics/overview
// (`rangeTotals`: tokens from the tokenizer, p95 from the merged DDSketches), so the dashboard
// and the analytics screens cannot disagree (docs/analytics.md "One code path per figure"). The
// servers, the sessions active now and the latest calls come from their indexed tables.

const LATEST_ACTIVITY = 10;

export async function workspaceOverview(
  db: Queryable,
  workspaceId: string,
  since: Date,
  nowMs = Date.now(),
): Promise<DashboardOverview> {
  const sinceIso = since.toISOString();
  const context = await analyticsContext(db, workspaceId, { from: sinceIso, to: new Date(nowMs).toISOString() }, nowMs);
  const [servers, active, totals, latest, lastSessionEvent] = await Promise.all([
    db.query<{ total: number; online: number }>(
      // A deployment stopped on purpose is not a server down: it is left out of "n of m online"
      // (issue 38), as its latest deployment's status says (crashed and failed ones still count).
      `select count(*)::int as total, (count(*) filter (where s.status = 'online'))::int as online
         from servers s
        where s.workspace_id = $1
          and not (s.kind = 'deployment' and coalesce((
                select d.status from deployments d join deployment_configs c on c.id = d.config_id
                 where c.server_id = s.id order by d.created_at desc limit 1), '') = 'stopped')`,
      [workspaceId],
    ),
    db.query<{ active: number }>(
      `select count(*)::int as active from sessions where workspace_id = $1 and status = 'active'`,
      [workspaceId],
    ),
    rangeTotals(context, context.range),
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
  const latestActivity = latest.map(toToolCallDto);
  const lastActivityAt = latestTime([
    lastSessionEvent[0]?.at ?? null,
    latestActivity[0]?.endedAt ?? null,
    latestActivity[0]?.startedAt ?? null,
  ]);
  return {
    since: sinceIso,
    servers: {
      total: serverCounts.total,
      online: serverCounts.online,
      offline: serverCounts.total - serverCounts.online,
    },
    sessions: { today: totals.sessions, active: active[0]?.active ?? 0 },
    toolCalls: {
      today: totals.calls,
      errors: totals.errors,
      tokens: totals.tokens,
      definitionTokens: totals.definitionTokens,
      cost: totals.cost,
    },
    errorRate: totals.calls === 0 ? null : totals.errorRate,
    latencyP95Ms: totals.p95Ms,
    tokenCorrection: tokenCorrection(context.prices),
    latestActivity,
    lastActivityAt,
  };
}

function tokenCorrection(prices: { modelName: string; correctionFactor: number; exactTokenizer: boolean }) {
  return { model: prices.modelName, factor: prices.correctionFactor, exact: prices.exactTokenizer };
}

function latestTime(times: (Date | string | null)[]): string | null {
  const millis = times.filter((t): t is Date | string => t !== null).map((t) => new Date(t).getTime());
  return millis.length ? new Date(Math.max(...millis)).toISOString() : null;
}
