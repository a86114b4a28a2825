import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  ANALYTICS_RANGES,
  DEFAULT_ANALYTICS_RANGE,
  type AnalyticsQuery,
  type AnalyticsRange,
} from '../../../contract/analytics';

// The time range (and filters) of the analytics screens, kept in the URL: a link or a reload shows
// the same view, and moving between /analytics, /performance, /cost-analytics and /cost-attribution
// keeps the range (the navigation carries the query string, see rangeLink).

export interface AnalyticsFilters {
  serverId?: string;
  tool?: string;
  client?: string;
  /** A platform key's id, or 'none'. */
  keyId?: string;
}

const FILTER_KEYS = ['serverId', 'tool', 'client', 'keyId'] as const;

export function readRange(search: URLSearchParams): AnalyticsRange {
  const value = search.get('range');
  return (ANALYTICS_RANGES as readonly string[]).includes(value ?? '')
    ? (value as AnalyticsRange)
    : DEFAULT_ANALYTICS_RANGE;
}

/** A custom range of the URL (`from` and `to`, ISO, from before to), or null. */
export function readCustomRange(search: URLSearchParams): { from: string; to: string } | null {
  const from = search.get('from');
  const to = search.get('to');
  if (!from || !to) return null;
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  return Number.isFinite(fromMs) && Number.isFinite(toMs) && fromMs < toMs ? { from, to } : null;
}

export function useAnalyticsRange() {
  const [search, setSearch] = useSearchParams();
  const range = readRange(search);
  const customFrom = readCustomRange(search)?.from;
  const customTo = readCustomRange(search)?.to;
  const custom = useMemo(
    () => (customFrom && customTo ? { from: customFrom, to: customTo } : null),
    [customFrom, customTo],
  );
  const filters = useMemo(() => {
    const out: AnalyticsFilters = {};
    for (const key of FILTER_KEYS) {
      const value = search.get(key);
      if (value) out[key] = value;
    }
    return out;
  }, [search]);
  // A custom from/to wins over a preset (the server takes one or the other).
  const query: AnalyticsQuery = useMemo(
    () => (custom ? { ...custom, ...filters } : { range, ...filters }),
    [custom, range, filters],
  );

  const setRange = useCallback(
    (next: AnalyticsRange) =>
      setSearch((current) => {
        const copy = new URLSearchParams(current);
        copy.set('range', next);
        copy.delete('from');
        copy.delete('to');
        return copy;
      }),
    [setSearch],
  );
  const setCustomRange = useCallback(
    (next: { from: string; to: string }) =>
      setSearch((current) => {
        const copy = new URLSearchParams(current);
        copy.delete('range');
        copy.set('from', next.from);
        copy.set('to', next.to);
        return copy;
      }),
    [setSearch],
  );
  /**
   * Replaces the named filters (undefined removes one) and other query values (`params`), in one
   * navigation: two updates in a row would each start from the same URL and the second would win.
   */
  const setView = useCallback(
    (next: AnalyticsFilters, params: Record<string, string | undefined> = {}) =>
      setSearch((current) => {
        const copy = new URLSearchParams(current);
        for (const key of FILTER_KEYS) {
          if (!(key in next)) continue;
          const value = next[key];
          if (value) copy.set(key, value);
          else copy.delete(key);
        }
        for (const [key, value] of Object.entries(params)) {
          if (value) copy.set(key, value);
          else copy.delete(key);
        }
        return copy;
      }),
    [setSearch],
  );
  const setFilters = useCallback((next: AnalyticsFilters) => setView(next), [setView]);
  const setParam = useCallback((key: string, value: string | undefined) => setView({}, { [key]: value }), [setView]);
  return { range, custom, filters, query, search, setRange, setCustomRange, setFilters, setParam, setView };
}

/** A link to another analytics screen with the same range. */
export function rangeLink(path: string, range: AnalyticsRange): string {
  return range === DEFAULT_ANALYTICS_RANGE ? path : `${path}?range=${range}`;
}
