import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { ErrorText } from '../../../../contract/errors';
import { errorMessage } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { VirtualRows } from '../../../components/VirtualRows';
import { useGetServersQuery } from '../../servers/serversApi';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { Pager } from '../components/Pager';
import { SessionExportButtons } from '../components/SessionExportButtons';
import { SessionFilters } from '../components/SessionFilters';
import { SessionHeaderRow, SessionRow } from '../components/SessionRow';
import {
  customRangeError,
  hasActiveFilters,
  nextSort,
  PAGE_SIZES,
  readFilters,
  toFilterQuery,
  toListQuery,
  writeFilters,
  type SessionFilterState,
} from '../sessionFilters';
import { RetentionNotice } from '../../../components/RetentionNotice';
import { useGetSessionsQuery } from '../sessionsApi';
import { useAnchorTime } from '../../../components/useAnchorTime';

const ROW_HEIGHT = 49;
/** On a phone a row is a card of five labelled lines (SessionRow). */
const PHONE_ROW_HEIGHT = 170;
const LIST_HEIGHT = 560;

/** /sessions: every session of the workspace, filtered, searched, sorted, paged and exported by the server. */
export default function SessionsPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const rowHeight = phone ? PHONE_ROW_HEIGHT : ROW_HEIGHT;
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => readFilters(search), [search]);
  // A relative range ("last 24 hours") is anchored when the filters change, not on every render.
  const now = useAnchorTime(search.toString());
  const { query, exportQuery } = useMemo(
    () => ({ query: toListQuery(filters, now), exportQuery: toFilterQuery(filters, now) }),
    [filters, now],
  );
  // A custom range ending before it starts is not asked for: its fields say what is wrong.
  const rangeError = customRangeError(filters);
  const sessions = useGetSessionsQuery(workspaceId && !rangeError ? { workspaceId, ...query } : skipToken);
  const servers = useGetServersQuery(workspaceId ?? skipToken);

  const update = useCallback(
    (next: Partial<SessionFilterState>) => {
      setSearch((current) => {
        const merged = { ...readFilters(current), ...next };
        if (!('page' in next)) merged.page = 0;
        return writeFilters(merged);
      });
    },
    [setSearch],
  );

  const header = (
    <PageHeader
      title="Sessions"
      subtitle="Every agent connection through the proxy: sort, filter, search and export"
      actions={
        workspaceId ? (
          <SessionExportButtons
            workspaceId={workspaceId}
            query={exportQuery}
            total={sessions.data?.total ?? 0}
            disabled={!sessions.data || sessions.data.total === 0 || rangeError !== null}
          />
        ) : undefined
      }
    />
  );
  if (!workspaceId) {
    return (
      <>
        {header}
        <Alert severity="info">{ErrorText.noWorkspace}</Alert>
      </>
    );
  }

  const data = sessions.data;
  const nothingRecorded = data && data.total === 0 && !hasActiveFilters(filters) && filters.page === 0;
  return (
    <>
      {header}
      {nothingRecorded ? (
        <EmptyState
          icon={<ForumOutlinedIcon />}
          title="No sessions recorded"
          description="A session starts when an agent connects through a proxy URL. Its messages, tool calls, duration and errors will be listed here, each with a full replay."
          action={{ label: 'Connect a tool server', to: '/servers' }}
          secondaryAction={{ label: 'Watch the activity stream', to: '/activity-stream' }}
        />
      ) : (
        <>
          <SessionFilters filters={filters} servers={servers.data ?? []} onChange={update} />
          <RetentionNotice
            retention={data?.retention}
            subject="sessions"
            rangeChosen={filters.range !== 'all' && (filters.range !== 'custom' || Boolean(filters.from))}
          />
          {sessions.isError ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void sessions.refetch()}>
                  Retry
                </Button>
              }
            >
              {errorMessage(sessions.error)}
            </Alert>
          ) : (
            <Paper
              variant="outlined"
              sx={{ opacity: sessions.isFetching && data ? 0.7 : 1, transition: 'opacity 120ms' }}
              aria-busy={sessions.isFetching}
            >
              <SessionHeaderRow
                sort={filters.sort}
                order={filters.order}
                onSort={(column) => update(nextSort(filters, column))}
              />
              {rangeError ? null : !data ? (
                <Box role="progressbar" aria-label="Loading sessions" sx={{ px: 2, pb: 2 }}>
                  {Array.from({ length: 8 }, (_, i) => (
                    <Skeleton key={i} height={ROW_HEIGHT - 8} />
                  ))}
                </Box>
              ) : data.sessions.length === 0 ? (
                <Box sx={{ p: 4, textAlign: 'center', color: 'text.secondary' }}>
                  No sessions match these filters.{' '}
                  <Button size="small" onClick={() => setSearch(new URLSearchParams())}>
                    Clear filters
                  </Button>
                </Box>
              ) : (
                <VirtualRows
                  label="Sessions"
                  count={data.sessions.length}
                  estimateSize={rowHeight}
                  height={Math.min(
                    phone ? LIST_HEIGHT + 2 * PHONE_ROW_HEIGHT : LIST_HEIGHT,
                    data.sessions.length * rowHeight + 2,
                  )}
                  getKey={(index) => data.sessions[index].id}
                  renderRow={(index) => <SessionRow session={data.sessions[index]} />}
                />
              )}
            </Paper>
          )}
          {data && data.total > 0 && (
            <Pager
              page={filters.page}
              pageSize={filters.pageSize}
              total={data.total}
              pageSizes={PAGE_SIZES}
              onPage={(page) => update({ page })}
              onPageSize={(pageSize) => update({ pageSize })}
            />
          )}
        </>
      )}
    </>
  );
}
