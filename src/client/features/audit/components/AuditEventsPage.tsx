import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { errorMessage } from '../../../api/apiError';
import { AUDIT_PAGE_SIZE, useGetAuditEventsQuery } from '../auditApi';
import { AuditEventRow } from './AuditEventRow';

interface AuditEventsPageProps {
  workspaceId: string;
  before?: string;
  /** Only the last page offers to load older events. */
  last: boolean;
  onLoadOlder: (before: string) => void;
}

/** One page of the audit log (its own cached query), as table rows. */
export function AuditEventsPage({ workspaceId, before, last, onLoadOlder }: AuditEventsPageProps) {
  const page = useGetAuditEventsQuery({ workspaceId, before });
  const events = page.data?.events ?? [];
  const oldest = events.at(-1);
  return (
    <>
      {page.isLoading && (
        <TableRow>
          <TableCell colSpan={4}>
            <Skeleton variant="rounded" height={40} aria-label="Loading security events" />
          </TableCell>
        </TableRow>
      )}
      {page.isError && (
        <TableRow>
          <TableCell colSpan={4}>
            <Alert severity="error">{errorMessage(page.error)}</Alert>
          </TableCell>
        </TableRow>
      )}
      {events.map((event) => (
        <AuditEventRow key={event.id} event={event} />
      ))}
      {/* A full page may have more behind it; a shorter one is the log's beginning. */}
      {last && oldest && events.length === AUDIT_PAGE_SIZE && (
        <TableRow>
          <TableCell colSpan={4} align="center">
            <Button onClick={() => onLoadOlder(oldest.createdAt)}>Load older events</Button>
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
