import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import TableSortLabel from '@mui/material/TableSortLabel';
import { SessionSortSelect } from './SessionSortSelect';
import Typography from '@mui/material/Typography';
import type { SessionListItem, SessionSort, SortOrder } from '../../../../contract/sessions';
import { RelativeTime } from '../../../components/RelativeTime';
import { formatUsd } from '../../../components/analytics/format';
import { formatClient, formatDuration, formatProtocol, serverPath, sessionPath } from '../../../components/formatting';

/** Columns shared by the header and every row (phones: two columns of labelled values). */
export const SESSION_GRID = {
  xs: '1fr 1fr',
  md: '84px minmax(0, 1.1fr) minmax(0, 1.3fr) 118px minmax(0, 1fr) 0.8fr 56px 56px 72px 80px',
};

const SORTABLE: { column: SessionSort; label: string }[] = [
  { column: 'startedAt', label: 'Started' },
  { column: 'duration', label: 'Duration' },
  { column: 'calls', label: 'Calls' },
  { column: 'errors', label: 'Errors' },
  { column: 'tokens', label: 'Tokens' },
  { column: 'cost', label: 'Cost' },
];

interface HeaderProps {
  sort: SessionSort;
  order: SortOrder;
  onSort: (column: SessionSort) => void;
}

/** The column headers; the numeric ones and Started sort the list (click again to reverse). */
export function SessionHeaderRow({ sort, order, onSort }: HeaderProps) {
  return (
    <>
      <SessionSortSelect columns={SORTABLE} sort={sort} order={order} onSort={onSort} />
      <Box
        role="group"
        aria-label="Sort sessions"
        sx={{
          display: { xs: 'none', md: 'grid' },
          gridTemplateColumns: SESSION_GRID,
          gap: 1.5,
          px: 2,
          py: 1,
          color: 'text.secondary',
          typography: 'caption',
          textTransform: 'uppercase',
          letterSpacing: 0.5,
        }}
      >
        <span>Status</span>
        <span>Server</span>
        <span>Client</span>
        <span>Protocol</span>
        {SORTABLE.map(({ column, label }) => (
          <TableSortLabel
            key={column}
            active={sort === column}
            direction={sort === column ? order : 'desc'}
            onClick={() => onSort(column)}
            aria-label={`Sort by ${label}${sort === column ? (order === 'desc' ? ', highest first' : ', lowest first') : ''}`}
            sx={{ typography: 'caption', textTransform: 'uppercase', letterSpacing: 0.5 }}
          >
            {label}
          </TableSortLabel>
        ))}
      </Box>
    </>
  );
}

/** A value with its label on phones, where there is no header row to name it. */
function Cell({
  label,
  children,
  color,
  bold,
}: {
  label: string;
  children: ReactNode;
  color?: string;
  bold?: boolean;
}) {
  return (
    <Typography variant="body2" color={color} sx={{ fontWeight: bold ? 600 : undefined, minWidth: 0 }} noWrap>
      <Box component="span" sx={{ display: { md: 'none' }, color: 'text.secondary', mr: 0.5 }}>
        {label}
      </Box>
      {children}
    </Typography>
  );
}

/** One session: everything in it is text (client names come from agents and stay inert). */
export function SessionRow({ session }: { session: SessionListItem }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: SESSION_GRID,
        gap: { xs: 0.75, md: 1.5 },
        alignItems: 'center',
        px: 2,
        py: 1.25,
        borderBottom: '1px solid',
        borderColor: 'divider',
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      <Box>
        <Chip
          size="small"
          label={session.status === 'active' ? 'Active' : 'Ended'}
          color={session.status === 'active' ? 'success' : 'default'}
          variant={session.status === 'active' ? 'filled' : 'outlined'}
        />
      </Box>
      <Link component={RouterLink} to={serverPath(session.serverId)} underline="hover" noWrap title="Open the server">
        {session.serverName ?? 'Deleted server'}
      </Link>
      <Link
        component={RouterLink}
        to={sessionPath(session.id)}
        underline="hover"
        noWrap
        color="text.primary"
        aria-label={`Open session ${formatClient(session.clientName, session.clientVersion)} started ${session.startedAt}`}
      >
        {formatClient(session.clientName, session.clientVersion)}
      </Link>
      <Typography variant="body2" color="text.secondary" noWrap>
        {formatProtocol(session.protocolVersion)}
      </Typography>
      <Cell label="Started">
        <RelativeTime value={session.startedAt} />
      </Cell>
      <Cell label="Duration">{formatDuration(session.durationMs)}</Cell>
      <Cell label="Calls">{session.callCount.toLocaleString()}</Cell>
      <Cell
        label="Errors"
        color={session.errorCount > 0 ? 'error.main' : 'text.secondary'}
        bold={session.errorCount > 0}
      >
        {session.errorCount.toLocaleString()}
      </Cell>
      <Cell label="Tokens">{session.tokens.toLocaleString()}</Cell>
      <Cell label="Cost">{formatUsd(session.cost)}</Cell>
    </Box>
  );
}
