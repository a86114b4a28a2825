import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { TOOL_CALL_STATUSES, type ToolCallStatus } from '../../../contract/sessions';
import type { ActivityFilters } from './activityFeed';

const KEYS = ['serverId', 'tool', 'status'] as const;
const isStatus = (value: string | null): value is ToolCallStatus =>
  (TOOL_CALL_STATUSES as readonly (string | null)[]).includes(value);

/**
 * The activity stream's filters, kept in the URL (`?serverId=…&tool=…&status=…`) as the sessions
 * and analytics screens keep theirs (issue 38): a reload or a shared link opens the same view.
 * A filter change replaces the history entry rather than adding one per keystroke.
 */
export function useActivityFilters(): [ActivityFilters, (next: ActivityFilters) => void] {
  const [params, setParams] = useSearchParams();
  const serverId = params.get('serverId') ?? '';
  const tool = params.get('tool') ?? '';
  const rawStatus = params.get('status');
  const status: ToolCallStatus | '' = isStatus(rawStatus) ? rawStatus : '';
  // One object per distinct filter: the feed's effects and the memoized bar compare by identity.
  const filters = useMemo((): ActivityFilters => ({ serverId, tool, status }), [serverId, tool, status]);
  const setFilters = useCallback(
    (next: ActivityFilters) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          for (const key of KEYS) {
            if (next[key]) updated.set(key, next[key]);
            else updated.delete(key);
          }
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [filters, setFilters];
}
