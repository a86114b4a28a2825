import { useState } from 'react';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import { SESSION_EXPORT_MAX, type SessionExportFormat, type SessionExportQuery } from '../../../../contract/sessions';
import { errorMessage } from '../../../api/apiError';
import { downloadFile } from '../../../components/downloadFile';
import { useToast } from '../../../components/toast';
import { useLazyExportSessionsQuery } from '../sessionsApi';

interface Props {
  workspaceId: string;
  /** The list's filters and order as they are now: the export holds the same sessions. */
  query: Omit<SessionExportQuery, 'format'>;
  /** Sessions matching the filters (the list's total), to say when the export is capped. */
  total: number;
  disabled?: boolean;
}

const TYPES: Record<SessionExportFormat, string> = { csv: 'text/csv;charset=utf-8', json: 'application/json' };

/** "Export CSV" / "Export JSON": the filtered, sorted list (not just this page) from the server. */
export function SessionExportButtons({ workspaceId, query, total, disabled }: Props) {
  const [exportSessions] = useLazyExportSessionsQuery();
  const [busy, setBusy] = useState<SessionExportFormat | null>(null);
  const { toast } = useToast();

  const run = async (format: SessionExportFormat) => {
    setBusy(format);
    try {
      const text = await exportSessions({ workspaceId, ...query, format }).unwrap();
      const stamp = new Date().toISOString().slice(0, 16).replace(/:/g, '');
      downloadFile(text, `sessions-${stamp}Z.${format}`, TYPES[format]);
      if (total > SESSION_EXPORT_MAX) {
        toast({
          title: `Exported the first ${SESSION_EXPORT_MAX.toLocaleString()} of ${total.toLocaleString()} sessions`,
          description: 'Narrow the filters to export the rest.',
        });
      }
    } catch (error) {
      toast({ title: 'Export failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <ButtonGroup size="small" variant="outlined" aria-label="Export sessions" disabled={disabled || busy !== null}>
      <Button startIcon={<DownloadOutlinedIcon />} onClick={() => void run('csv')}>
        {busy === 'csv' ? 'Exporting…' : 'Export CSV'}
      </Button>
      <Button onClick={() => void run('json')}>{busy === 'json' ? 'Exporting…' : 'Export JSON'}</Button>
    </ButtonGroup>
  );
}
