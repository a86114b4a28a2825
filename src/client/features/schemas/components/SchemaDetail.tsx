import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { SchemaDto } from '../../../../contract/schemas';
import { errorMessage } from '../../../api/apiError';
import { useToast } from '../../../components/toast';
import { useGetSchemaVersionsQuery, useRollbackSchemaMutation } from '../../servers/serversApi';
import { changedTopLevelFields, KIND_SINGULAR } from '../schemaDiff';
import { DefinitionView } from './DefinitionView';
import { DriftAlert } from './DriftAlert';
import { RiskFindings } from './RiskFindings';
import { VersionHistory } from './VersionHistory';

/** One schema: drift, the definition agents see, and its history with rollback. */
export function SchemaDetail({ workspaceId, schema }: { workspaceId: string; schema: SchemaDto }) {
  const { toast } = useToast();
  const ref = { workspaceId, serverId: schema.serverId, schemaId: schema.id };
  const versionsQuery = useGetSchemaVersionsQuery(ref);
  const [rollback, { isLoading: busy }] = useRollbackSchemaMutation();
  const versions = [...(versionsQuery.currentData?.versions ?? [])].sort((a, b) => a.version - b.version);
  const latest = versions.find((v) => v.version === schema.currentVersion);
  const previous = versions.find((v) => v.version === schema.currentVersion - 1);
  const pinned = schema.pinnedVersion === null ? undefined : versions.find((v) => v.version === schema.pinnedVersion);
  const highlight = schema.drifted && latest ? changedTopLevelFields(latest.patch) : [];

  const runRollback = async (version: number) => {
    try {
      await rollback({ ...ref, version }).unwrap();
      toast(
        version === schema.currentVersion
          ? { title: 'Version accepted', description: `Agents see v${version} of ${schema.name}.` }
          : { title: 'Rolled back', description: `Agents now see v${version} of ${schema.name}.` },
      );
    } catch (caught) {
      toast({ title: 'Rollback failed', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, minWidth: 0 }}>
      <Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography
            variant="h5"
            component="h2"
            sx={{ fontFamily: 'ui-monospace, monospace', overflowWrap: 'anywhere' }}
          >
            {schema.name}
          </Typography>
          <Chip size="small" label={KIND_SINGULAR[schema.kind]} variant="outlined" />
          <Chip size="small" label={`v${schema.currentVersion}`} />
          {schema.pinnedVersion !== null && (
            <Chip size="small" color="primary" label={`pinned to v${schema.pinnedVersion}`} />
          )}
        </Box>
        {typeof schema.definition.description === 'string' && (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            {schema.definition.description}
          </Typography>
        )}
      </Box>
      <RiskFindings schema={schema} />
      {schema.drifted && (
        <DriftAlert
          schema={schema}
          latest={latest}
          previous={previous}
          busy={busy}
          onAccept={() => void runRollback(schema.currentVersion)}
          onRollback={(version) => void runRollback(version)}
        />
      )}
      {pinned && (
        <Alert severity="info" variant="outlined">
          Agents are served v{pinned.version} through the proxy, not the upstream's v{schema.currentVersion}.
        </Alert>
      )}
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1, fontWeight: 600 }}>
          {pinned ? `Definition served (v${pinned.version})` : 'Current definition'}
        </Typography>
        <DefinitionView
          definition={pinned ? pinned.definition : schema.definition}
          highlight={pinned ? [] : highlight}
        />
      </Box>
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1.5, fontWeight: 600 }}>
          Version history
        </Typography>
        {versionsQuery.isError && <Alert severity="error">{errorMessage(versionsQuery.error)}</Alert>}
        {!versionsQuery.currentData && !versionsQuery.isError && <Skeleton variant="rounded" height={120} />}
        {versions.length > 0 && (
          <VersionHistory schema={schema} versions={versions} busy={busy} onRollback={(v) => void runRollback(v)} />
        )}
      </Box>
    </Box>
  );
}
