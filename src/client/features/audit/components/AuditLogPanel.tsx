import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useGetAuditEventsQuery } from '../auditApi';
import { AuditEventsPage } from './AuditEventsPage';

interface AuditLogPanelProps {
  workspaceId: string;
  canView: boolean;
}

/**
 * Workspace settings → Audit log: the workspace's security events (lockouts, stolen sign-ins,
 * members and roles, keys, server credentials, integrations, exporters, deployments, refused
 * private upstreams), newest first, older pages on demand.
 */
export function AuditLogPanel({ workspaceId, canView }: AuditLogPanelProps) {
  // Each "Load older" adds a page keyed by the oldest event shown so far.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const first = useGetAuditEventsQuery({ workspaceId }, { skip: !canView });
  if (!canView) return <Alert severity="info">Only workspace owners and admins can read the audit log.</Alert>;
  const empty = first.isSuccess && first.data.events.length === 0;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          Security events of this workspace, with who did what and when: sign-in lockouts, reused sign-in tokens,
          members and role changes, platform and workspace keys created or revoked, server credentials changed,
          integrations and telemetry exporters added, changed or removed, deployments started or stopped, and refused
          private upstreams.
        </Typography>
        <Button
          onClick={() => {
            setCursors([undefined]);
            void first.refetch();
          }}
        >
          Refresh
        </Button>
      </Stack>
      {empty ? (
        <Typography color="text.secondary">No security events yet.</Typography>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Audit log">
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>Event</TableCell>
                <TableCell>By</TableCell>
                <TableCell>Target</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {cursors.map((before, index) => (
                <AuditEventsPage
                  key={before ?? 'newest'}
                  workspaceId={workspaceId}
                  before={before}
                  last={index === cursors.length - 1}
                  onLoadOlder={(older) => setCursors((shown) => [...shown, older])}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Stack>
  );
}
