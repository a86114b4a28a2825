import {
  SESSION_SORTS,
  SESSION_STATUSES,
  SORT_ORDERS,
  type SessionExportQuery,
  type SessionListQuery,
  type SessionSort,
  type SessionStatus,
  type SortOrder,
} from '../../../contract/sessions';

// The sessions list's filters, sort and page live in the URL
// (?server=…&status=…&errors=…&range=…&from=…&to=…&q=…&sort=…&order=…&page=…), so a view can be
// bookmarked, shared and restored with the back button.

export const TIME_RANGES = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
} as const;
/** 'custom': from/to chosen by the user (either may be empty: open-ended). */
export type TimeRange = keyof typeof TIME_RANGES | 'all' | 'custom';
export const PAGE_SIZES = [50, 100, 200] as const;
export type ErrorsFilter = '' | 'with' | 'without';

export interface SessionFilterState {
  serverId: string;
  client: string;
  status: SessionStatus | '';
  errors: ErrorsFilter;
  range: TimeRange;
  /** ISO times of a custom range ('' when open on that side). */
  from: string;
  to: string;
  q: string;
  sort: SessionSort;
  order: SortOrder;
  page: number;
  pageSize: number;
}

const isIso = (text: string) => text !== '' && !Number.isNaN(Date.parse(text));

export function readFilters(search: URLSearchParams): SessionFilterState {
  const status = search.get('status') ?? '';
  const errors = search.get('errors') ?? '';
  const range = search.get('range') ?? 'all';
  const sort = search.get('sort') ?? 'startedAt';
  const order = search.get('order') ?? 'desc';
  const pageSize = Number(search.get('pageSize'));
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  return {
    serverId: search.get('server') ?? '',
    client: search.get('client') ?? '',
    status: (SESSION_STATUSES as readonly string[]).includes(status) ? (status as SessionStatus) : '',
    errors: errors === 'with' || errors === 'without' ? errors : '',
    range: range in TIME_RANGES || range === 'custom' ? (range as TimeRange) : 'all',
    from: range === 'custom' && isIso(from) ? new Date(from).toISOString() : '',
    to: range === 'custom' && isIso(to) ? new Date(to).toISOString() : '',
    q: search.get('q') ?? '',
    sort: (SESSION_SORTS as readonly string[]).includes(sort) ? (sort as SessionSort) : 'startedAt',
    order: (SORT_ORDERS as readonly string[]).includes(order) ? (order as SortOrder) : 'desc',
    page: Math.max(0, Number.parseInt(search.get('page') ?? '0', 10) || 0),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : PAGE_SIZES[0],
  };
}

/** The URL for new filters (defaults are left out). */
export function writeFilters(filters: SessionFilterState): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.serverId) search.set('server', filters.serverId);
  if (filters.client) search.set('client', filters.client);
  if (filters.status) search.set('status', filters.status);
  if (filters.errors) search.set('errors', filters.errors);
  if (filters.range !== 'all') search.set('range', filters.range);
  if (filters.range === 'custom' && filters.from) search.set('from', filters.from);
  if (filters.range === 'custom' && filters.to) search.set('to', filters.to);
  if (filters.q) search.set('q', filters.q);
  if (filters.sort !== 'startedAt') search.set('sort', filters.sort);
  if (filters.order !== 'desc') search.set('order', filters.order);
  if (filters.page > 0) search.set('page', String(filters.page));
  if (filters.pageSize !== PAGE_SIZES[0]) search.set('pageSize', String(filters.pageSize));
  return search;
}

/** A custom range whose end is before its start: the fields say so and nothing is asked. */
export function customRangeError(filters: SessionFilterState): string | null {
  if (filters.range !== 'custom' || !filters.from || !filters.to) return null;
  return Date.parse(filters.to) < Date.parse(filters.from) ? 'The end is before the start' : null;
}

/** The filters and order as the list and the export take them; `now` fixes where a relative range ends. */
export function toFilterQuery(filters: SessionFilterState, now: number): Omit<SessionExportQuery, 'format'> {
  const relative = filters.range !== 'all' && filters.range !== 'custom';
  return {
    serverId: filters.serverId || undefined,
    client: filters.client.trim() || undefined,
    status: filters.status || undefined,
    hasErrors: filters.errors === 'with' ? 'true' : filters.errors === 'without' ? 'false' : undefined,
    from: relative
      ? new Date(now - TIME_RANGES[filters.range as keyof typeof TIME_RANGES]).toISOString()
      : filters.range === 'custom'
        ? filters.from || undefined
        : undefined,
    to: filters.range === 'custom' ? filters.to || undefined : undefined,
    q: filters.q.trim() || undefined,
    sort: filters.sort,
    order: filters.order,
  };
}

/** The API query for the filters and page. */
export function toListQuery(filters: SessionFilterState, now: number): SessionListQuery {
  return { ...toFilterQuery(filters, now), limit: filters.pageSize, offset: filters.page * filters.pageSize };
}

export function hasActiveFilters(filters: SessionFilterState): boolean {
  return Boolean(
    filters.serverId || filters.client || filters.status || filters.errors || filters.range !== 'all' || filters.q,
  );
}

/** The next sort when a column header is clicked: the same column flips, another starts descending. */
export function nextSort(filters: SessionFilterState, column: SessionSort): Pick<SessionFilterState, 'sort' | 'order'> {
  if (filters.sort === column) return { sort: column, order: filters.order === 'desc' ? 'asc' : 'desc' };
  return { sort: column, order: 'desc' };
}
