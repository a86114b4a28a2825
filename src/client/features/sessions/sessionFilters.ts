import { SESSION_STATUSES, type SessionListQuery, type SessionStatus } from '../../../contract/sessions';

// The sessions list's filters live in the URL (?server=…&status=…&range=…&q=…&page=…), so a
// filtered view can be bookmarked, shared and restored with the back button.

export const TIME_RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type TimeRange = keyof typeof TIME_RANGES | 'all';
export const PAGE_SIZES = [50, 100, 200] as const;

export interface SessionFilterState {
  serverId: string;
  client: string;
  status: SessionStatus | '';
  range: TimeRange;
  q: string;
  page: number;
  pageSize: number;
}

export function readFilters(search: URLSearchParams): SessionFilterState {
  const status = search.get('status') ?? '';
  const range = search.get('range') ?? 'all';
  const pageSize = Number(search.get('pageSize'));
  return {
    serverId: search.get('server') ?? '',
    client: search.get('client') ?? '',
    status: (SESSION_STATUSES as readonly string[]).includes(status) ? (status as SessionStatus) : '',
    range: range in TIME_RANGES ? (range as TimeRange) : 'all',
    q: search.get('q') ?? '',
    page: Math.max(0, Number.parseInt(search.get('page') ?? '0', 10) || 0),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : PAGE_SIZES[0],
  };
}

/** The URL for new filters; any change of filter goes back to the first page. */
export function writeFilters(filters: SessionFilterState): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.serverId) search.set('server', filters.serverId);
  if (filters.client) search.set('client', filters.client);
  if (filters.status) search.set('status', filters.status);
  if (filters.range !== 'all') search.set('range', filters.range);
  if (filters.q) search.set('q', filters.q);
  if (filters.page > 0) search.set('page', String(filters.page));
  if (filters.pageSize !== PAGE_SIZES[0]) search.set('pageSize', String(filters.pageSize));
  return search;
}

/** The API query for the filters; `now` fixes where a relative time range ends. */
export function toListQuery(filters: SessionFilterState, now: number): SessionListQuery {
  return {
    limit: filters.pageSize,
    offset: filters.page * filters.pageSize,
    serverId: filters.serverId || undefined,
    client: filters.client.trim() || undefined,
    status: filters.status || undefined,
    from: filters.range === 'all' ? undefined : new Date(now - TIME_RANGES[filters.range]).toISOString(),
    q: filters.q.trim() || undefined,
  };
}

export function hasActiveFilters(filters: SessionFilterState): boolean {
  return Boolean(filters.serverId || filters.client || filters.status || filters.range !== 'all' || filters.q);
}
