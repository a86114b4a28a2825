import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ANALYTICS_RANGES, DEFAULT_ANALYTICS_RANGE, type AnalyticsQuery, type AnalyticsRange } from '../../../contract/analytics';

// The time range (and filters) of the analytics screens, kept in the URL: a link or a reload shows
// the same view, and moving between /analytics, /performance, /cost-analytics and /cost-attribution
// keeps the range (the navigation carries the query string, see rangeLink).

export interface AnalyticsFilters {
  serverId?: string;
  tool?: string;
  client?: string;
}

const FILTER_KEYS = ['serverId', 'tool', 'client'] as const;

export function readRange(search: URLSearchParams): AnalyticsRange {
  const value = search.get('range');
  return (ANALYTICS_RANGES as readonly string[]).includes(value ?? '') ? (value as AnalyticsRange) : DEFAULT_ANALYTICS_RANGE;
}

export function useAnalyticsRange() {
  const [search, setSearch] = useSearchParams();
  const range = readRange(search);
  const filters = useMemo(() => {
    const out: AnalyticsFilters = {};
    for (const key of FILTER_KEYS) {
      const value = search.get(key);
      if (value) out[key] = value;
    }
    return out;
  }, [search]);
  const query: AnalyticsQuery = useMemo(() => ({ range, ...filters }), [range, filters]);

  const setRange = useCallback(
    (next: AnalyticsRange) =>
      setSearch((current) => {
        const copy = new URLSearchParams(current);
        copy.set('range', next);
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
  return { range, filters, query, search, setRange, setFilters, setParam, setView };
}

/** A link to another analytics screen with the same range. */
export function rangeLink(path: string, range: AnalyticsRange): string {
  return range === DEFAULT_ANALYTICS_RANGE ? path : `${path}?range=${range}`;
}
