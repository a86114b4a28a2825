import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { ExporterDto } from '../../../../contract/telemetry';
import { errorMessage, fieldErrors } from '../../../api/apiError';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';
import { useToast } from '../../../components/toast';
import {
  useCreateExporterMutation,
  useDeleteExporterMutation,
  useGetExportersQuery,
  useTestExporterMutation,
  useUpdateExporterMutation,
} from '../telemetryApi';
import { ExporterCard } from './ExporterCard';
import { ExporterFormDialog, type ExporterFormValues } from './ExporterFormDialog';

type Dialog =
  { kind: 'add' } | { kind: 'edit'; exporter: ExporterDto } | { kind: 'delete'; exporter: ExporterDto } | null;

const MASK = '••••';

function bodyOf(values: ExporterFormValues) {
  return {
    name: values.name.trim(),
    endpoint: values.endpoint.trim(),
    protocol: values.protocol,
    headers: Object.fromEntries(values.headers.map((h) => [h.name.trim(), h.value])),
    signals: values.signals,
    samplingRatio: Number(values.samplingRatio),
    enabled: values.enabled,
  };
}

function formOf(exporter: ExporterDto): ExporterFormValues {
  return {
    name: exporter.name,
    endpoint: exporter.endpoint,
    protocol: exporter.protocol,
    // Stored values stay on the server: a header left masked keeps its value.
    headers: Object.keys(exporter.headers).map((name) => ({ name, value: MASK })),
    signals: exporter.signals,
    samplingRatio: String(exporter.samplingRatio),
    enabled: exporter.enabled,
  };
}

/** The workspace's OTLP exporters: add from a preset, test, see counters, edit, remove. */
export function TelemetryPanel({ workspaceId, canManage }: { workspaceId: string; canManage: boolean }) {
  const { toast } = useToast();
  const exporters = useGetExportersQuery(workspaceId);
  const [createExporter] = useCreateExporterMutation();
  const [updateExporter] = useUpdateExporterMutation();
  const [deleteExporter] = useDeleteExporterMutation();
  const [testExporter] = useTestExporterMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [testingId, setTestingId] = useState<string | null>(null);
  const close = () => setDialog(null);

  const failure = (caught: unknown) => ({ message: errorMessage(caught), fields: fieldErrors(caught) });
  const create = async (values: ExporterFormValues) => {
    try {
      const created = await createExporter({ workspaceId, body: bodyOf(values) }).unwrap();
      toast({ title: 'Exporter added', description: `${created.name} receives this workspace's MCP traffic.` });
      close();
      return null;
    } catch (caught) {
      return failure(caught);
    }
  };
  const edit = (exporter: ExporterDto) => async (values: ExporterFormValues) => {
    try {
      await updateExporter({ workspaceId, id: exporter.id, body: bodyOf(values) }).unwrap();
      toast({ title: 'Exporter saved', description: values.name.trim() });
      close();
      return null;
    } catch (caught) {
      return failure(caught);
    }
  };
  const toggle = async (exporter: ExporterDto, enabled: boolean) => {
    try {
      await updateExporter({ workspaceId, id: exporter.id, body: { enabled } }).unwrap();
    } catch (caught) {
      toast({ title: 'Could not change the exporter', description: errorMessage(caught), variant: 'destructive' });
    }
  };
  const test = async (exporter: ExporterDto) => {
    setTestingId(exporter.id);
    try {
      const result = await testExporter({ workspaceId, id: exporter.id }).unwrap();
      toast(
        result.ok
          ? {
              title: 'Test span accepted',
              description: `The collector answered ${result.statusCode} in ${Math.round(result.latencyMs)} ms.`,
            }
          : { title: 'Test span refused', description: result.message ?? 'No answer', variant: 'destructive' },
      );
    } catch (caught) {
      toast({ title: 'Test span refused', description: errorMessage(caught), variant: 'destructive' });
    } finally {
      setTestingId(null);
    }
  };
  const remove = (exporter: ExporterDto) => async () => {
    try {
      await deleteExporter({ workspaceId, id: exporter.id }).unwrap();
      toast({ title: 'Exporter deleted', description: exporter.name });
      close();
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };

  const list = exporters.currentData;
  return (
    <>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: 2 }}>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 640 }}>
          Send a span per MCP request (joined to your agent's trace when it sends a traceparent) and tool call metrics
          to any OpenTelemetry backend over OTLP/HTTP.
        </Typography>
        {canManage && (
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setDialog({ kind: 'add' })}
            sx={{ flexShrink: 0 }}
          >
            Add exporter
          </Button>
        )}
      </Stack>
      {exporters.isError && !list && <Alert severity="error">{errorMessage(exporters.error)}</Alert>}
      {!list && !exporters.isError && <Skeleton variant="rounded" height={180} aria-label="Loading exporters" />}
      {list && list.length === 0 && (
        <Alert severity="info">
          No exporters yet.{' '}
          {canManage ? 'Add one to see MCP traffic in your observability stack.' : 'Owners and admins add them.'}
        </Alert>
      )}
      {list && list.length > 0 && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          {list.map((exporter) => (
            <ExporterCard
              key={exporter.id}
              workspaceId={workspaceId}
              exporter={exporter}
              canManage={canManage}
              testing={testingId === exporter.id}
              onToggle={(enabled) => void toggle(exporter, enabled)}
              onTest={() => void test(exporter)}
              onEdit={() => setDialog({ kind: 'edit', exporter })}
              onDelete={() => setDialog({ kind: 'delete', exporter })}
            />
          ))}
        </Box>
      )}
      {dialog?.kind === 'add' && (
        <ExporterFormDialog title="Add exporter" submitLabel="Add exporter" onSubmit={create} onClose={close} />
      )}
      {dialog?.kind === 'edit' && (
        <ExporterFormDialog
          title={`Edit ${dialog.exporter.name}`}
          submitLabel="Save"
          initial={formOf(dialog.exporter)}
          onSubmit={edit(dialog.exporter)}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDestructiveDialog
          title={`Delete ${dialog.exporter.name}?`}
          confirmLabel="Delete"
          busyLabel="Deleting…"
          onConfirm={remove(dialog.exporter)}
          onClose={close}
        >
          Exports stop at once; spans still queued for it are dropped.
        </ConfirmDestructiveDialog>
      )}
    </>
  );
}
