import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import DataObjectOutlinedIcon from '@mui/icons-material/DataObjectOutlined';
import SearchOutlinedIcon from '@mui/icons-material/SearchOutlined';
import { SCHEMA_KINDS } from '../../../../contract/schemas';
import { errorMessage } from '../../../api/apiError';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { PageSkeleton } from '../../../components/PageSkeleton';
import { useToast } from '../../../components/toast';
import { useDiscoverSchemasMutation, useGetSchemasQuery } from '../../servers/serversApi';
import { useServersList } from '../../servers/useServersList';
import { SchemaDetail } from '../components/SchemaDetail';
import { SchemaList } from '../components/SchemaList';

/** Schema Studio (/schema-studio, behind show_schema_studio: the router's FlaggedPage gates it): schemas, versions, patches, drift. */
export default function SchemaStudioPage() {
  return <SchemaStudio />;
}

function SchemaStudio() {
  const { toast } = useToast();
  const [params, setParams] = useSearchParams();
  const { workspaceId, servers, isLoading, error } = useServersList();
  // A server id from a stale link (not in this workspace) falls back to the first server.
  const server = servers?.find((s) => s.id === params.get('serverId')) ?? servers?.[0] ?? null;
  const serverId = server?.id ?? null;
  const schemasQuery = useGetSchemasQuery(
    { workspaceId: workspaceId ?? '', serverId: serverId ?? '' },
    { skip: !workspaceId || !server },
  );
  const [discover, { isLoading: discovering }] = useDiscoverSchemasMutation();
  // In the order the list shows them (tools, prompts, resources, templates), so the first one
  // selected is the first one seen.
  const schemas = useMemo(
    () => SCHEMA_KINDS.flatMap((kind) => (schemasQuery.currentData?.schemas ?? []).filter((s) => s.kind === kind)),
    [schemasQuery.currentData],
  );
  const schemaId = params.get('schemaId');
  // Drifted schemas first: they are what someone opening the studio most needs to see.
  const selected = schemas.find((s) => s.id === schemaId) ?? schemas.find((s) => s.drifted) ?? schemas.at(0) ?? null;

  const select = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });

  const runDiscovery = async () => {
    if (!workspaceId || !serverId) return;
    try {
      const result = await discover({ workspaceId, serverId }).unwrap();
      toast({ title: 'Discovery finished', description: `Found ${result.schemaCount} schema(s) for this server` });
    } catch (caught) {
      toast({ title: 'Discovery failed', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  const header = (
    <PageHeader
      title="Schema Studio"
      subtitle="The tools, prompts and resources of your servers, every version seen, and drift from what was approved"
      actions={
        servers && servers.length > 0 ? (
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
            <FormControl size="small" sx={{ minWidth: 220 }}>
              <InputLabel id="schema-server-label">Server</InputLabel>
              <Select
                labelId="schema-server-label"
                label="Server"
                value={server?.id ?? ''}
                onChange={(event) => select({ serverId: event.target.value, schemaId: null })}
              >
                {servers.map((s) => (
                  <MenuItem key={s.id} value={s.id}>
                    {s.name}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <Button
              variant="outlined"
              startIcon={<SearchOutlinedIcon />}
              onClick={() => void runDiscovery()}
              disabled={discovering || !server}
            >
              {discovering ? 'Discovering...' : 'Discover now'}
            </Button>
          </Box>
        ) : undefined
      }
    />
  );

  if (isLoading) return <PageSkeleton />;
  if (error && !servers) {
    return (
      <>
        {header}
        <Alert severity="error">{error}</Alert>
      </>
    );
  }
  if (!servers || servers.length === 0) {
    return (
      <>
        {header}
        <EmptyState
          icon={<DataObjectOutlinedIcon />}
          title="No schemas discovered"
          description="Connect a tool server first. Toolscope discovers its tools, prompts and resources, keeps every version it sees and alerts you when the upstream changes them."
          action={{ label: 'Connect a tool server', to: '/servers' }}
        />
      </>
    );
  }

  return (
    <>
      {header}
      {schemasQuery.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(schemasQuery.error)}
        </Alert>
      )}
      {!schemasQuery.currentData && !schemasQuery.isError && <Skeleton variant="rounded" height={360} />}
      {schemasQuery.currentData && schemas.length === 0 && (
        <EmptyState
          icon={<DataObjectOutlinedIcon />}
          title="No schemas yet"
          description={`Nothing has been discovered on ${server?.name ?? 'this server'} yet. Discovery runs when the server answers its health check; run it now to list its tools, prompts and resources.`}
        />
      )}
      {selected && workspaceId && (
        <Box
          sx={{
            display: 'grid',
            gap: 2.5,
            gridTemplateColumns: { xs: '1fr', md: 'minmax(240px, 300px) minmax(0, 1fr)' },
            alignItems: 'start',
          }}
        >
          <Card
            variant="outlined"
            sx={{
              borderRadius: 3,
              py: 1,
              maxHeight: { md: 'calc(100vh - 220px)' },
              overflow: 'auto',
              colorScheme: 'dark',
              position: { md: 'sticky' },
              top: { md: 88 },
            }}
          >
            <Typography variant="caption" color="text.secondary" sx={{ px: 2 }}>
              {schemas.length} schema(s) · {schemas.filter((s) => s.drifted).length} drifted
            </Typography>
            <SchemaList schemas={schemas} selectedId={selected.id} onSelect={(id) => select({ schemaId: id })} />
          </Card>
          <Card variant="outlined" sx={{ borderRadius: 3, p: { xs: 2, md: 3 } }}>
            <SchemaDetail key={selected.id} workspaceId={workspaceId} schema={selected} />
          </Card>
        </Box>
      )}
    </>
  );
}
