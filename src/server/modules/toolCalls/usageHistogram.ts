import type { Queryable } from '../../db/database';
import { DURATION_HISTOGRAM_BOUNDS_MS } from '../../../contract/sessions';

// Sums usage_minutes.duration_hist element-wise in SQL (one row per bucket index), so a 30-day
// range costs the number of histogram cells, not a transfer of every minute row.

export interface HistogramScope {
  /** SQL expression grouping the rows (e.g. a date_bin of u.bucket), or null for one group. */
  groupBy: string | null;
  where: string;
  params: unknown[];
}

/** Histogram counts per group key (ISO of the group value, or '' for the single group). */
export async function sumHistograms(db: Queryable, scope: HistogramScope): Promise<Map<string, number[]>> {
  const group = scope.groupBy ?? 'null::timestamptz';
  const rows = await db.query<{ grp: Date | string | null; idx: number; count: number }>(
    `select ${group} as grp, h.idx::int as idx, sum(h.count)::int as count
     from usage_minutes u cross join lateral unnest(u.duration_hist) with ordinality as h(count, idx)
     ${scope.where} group by 1, 2`,
    scope.params,
  );
  const byGroup = new Map<string, number[]>();
  for (const row of rows) {
    const key = row.grp === null ? '' : new Date(row.grp).toISOString();
    let counts = byGroup.get(key);
    if (!counts) byGroup.set(key, (counts = new Array<number>(DURATION_HISTOGRAM_BOUNDS_MS.length).fill(0)));
    const index = Math.min(row.idx - 1, counts.length - 1);
    if (index >= 0) counts[index] += row.count;
  }
  return byGroup;
}
