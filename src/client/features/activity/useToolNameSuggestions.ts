import { skipToken } from '@reduxjs/toolkit/query/react';
import { useMemo } from 'react';
import type { ActivityEvent } from '../../../contract/activity';
import { useGetToolAnalyticsQuery } from '../../api/analyticsApi';

/** The tool names the filter suggests: those called in the last 7 days and those on screen, A–Z. */
export function useToolNameSuggestions(workspaceId: string | null, events: ActivityEvent[]): string[] {
  const tools = useGetToolAnalyticsQuery(workspaceId ? { workspaceId, range: '7d' } : skipToken);
  const joined = useMemo(() => {
    const names = new Set<string>(tools.data?.tools.map((tool) => tool.tool) ?? []);
    for (const event of events) if (event.kind === 'tool_call') names.add(event.toolCall.toolName);
    return [...names].sort((a, b) => a.localeCompare(b)).join('\n');
  }, [tools.data, events]);
  // The same list keeps its identity while events stream in: the memoized filter bar stays put.
  return useMemo(() => (joined ? joined.split('\n') : []), [joined]);
}
