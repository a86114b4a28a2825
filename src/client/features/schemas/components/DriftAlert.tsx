import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import type { SchemaDto, SchemaVersionDto } from '../../../../contract/schemas';
import { changedTopLevelFields, describePatch, KIND_SINGULAR } from '../schemaDiff';
import { PatchDiff } from './PatchDiff';

interface DriftAlertProps {
  schema: SchemaDto;
  latest: SchemaVersionDto | undefined;
  previous: SchemaVersionDto | undefined;
  busy: boolean;
  onAccept: () => void;
  onRollback: (version: number) => void;
}

/** The upstream changed a definition after it was first seen: what changed, and what to do. */
export function DriftAlert({ schema, latest, previous, busy, onAccept, onRollback }: DriftAlertProps) {
  const operations = latest?.patch ?? [];
  const fields = changedTopLevelFields(operations);
  return (
    <Alert severity="warning" variant="outlined" role="alert" sx={{ '& .MuiAlert-message': { width: '100%' } }}>
      <AlertTitle>Schema drift detected</AlertTitle>
      The upstream now serves a different {KIND_SINGULAR[schema.kind]} than the one last seen or approved. Review the
      change: a silent change to a description or its inputs can alter what an agent does.
      {fields.length > 0 && (
        <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap', my: 1.5 }} aria-label="Changed fields">
          {fields.map((field) => (
            <Chip
              key={field}
              size="small"
              color="warning"
              label={field}
              sx={{ fontFamily: 'ui-monospace, monospace' }}
            />
          ))}
        </Box>
      )}
      {latest && <PatchDiff lines={describePatch(operations, previous?.definition)} />}
      <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}>
        <Button size="small" variant="contained" color="warning" disabled={busy} onClick={onAccept}>
          Accept v{schema.currentVersion}
        </Button>
        {/* Pinned to the previous version already: rolling back to it again would do nothing. */}
        {previous && schema.pinnedVersion !== previous.version && (
          <Button
            size="small"
            variant="outlined"
            color="warning"
            disabled={busy}
            onClick={() => onRollback(previous.version)}
          >
            Roll back to v{previous.version}
          </Button>
        )}
      </Box>
    </Alert>
  );
}
