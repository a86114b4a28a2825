import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AuditEventDto } from '../../../../contract/audit';
import { formatDateTime, useDateDisplay } from '../../../components/dates/dateDisplay';
import { auditActionLabel, auditDetailsText } from '../auditActionLabels';

// Events an owner should look at twice (someone may hold stolen credentials) stand out.
const ALARMING = new Set([
  'auth.refresh_token_reused',
  'auth.locked_out',
  'upstream.refused_private',
  'server.credentials_dropped',
]);

/** One security event: when, what, who did it, to what, and the details the server recorded. */
export function AuditEventRow({ event }: { event: AuditEventDto }) {
  const display = useDateDisplay();
  const details = auditDetailsText(event.details);
  return (
    <TableRow>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.createdAt, display)}</TableCell>
      <TableCell>
        <Chip
          size="small"
          variant="outlined"
          color={ALARMING.has(event.action) ? 'warning' : 'default'}
          label={auditActionLabel(event.action)}
        />
      </TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>{event.actor?.email ?? 'Toolscope'}</TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>
        {event.target ?? '—'}
        {details && (
          <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'anywhere' }}>
            {details}
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
}
