import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import ExtensionOutlinedIcon from '@mui/icons-material/ExtensionOutlined';
import type { DeliveryOutcome, IntegrationActivityDto, IntegrationDto } from '../../../../contract/integrations';
import { errorMessage, fieldErrors, type FieldErrors } from '../../../api/apiError';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';
import { EmptyState } from '../../../components/EmptyState';
import { useToast } from '../../../components/toast';
import type { FormFailure } from '../../../components/useFormDialogSubmit';
import {
  configOf,
  createBodyOf,
  formFieldOf,
  formFromIntegration,
  rulesOf,
  type IntegrationFormValues,
} from '../integrationForm';
import {
  useCreateIntegrationMutation,
  useDeleteIntegrationMutation,
  useGetIntegrationsQuery,
  useResendDeliveryMutation,
  useTestIntegrationMutation,
  useUpdateIntegrationMutation,
} from '../integrationsApi';
import { ActivityLogDialog } from './ActivityLogDialog';
import { IntegrationCard } from './IntegrationCard';
import { IntegrationFormDialog } from './IntegrationFormDialog';
import { RevealedSecretDialog } from './RevealedSecretDialog';

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; integration: IntegrationDto }
  | { kind: 'delete'; integration: IntegrationDto }
  | { kind: 'activity'; integration: IntegrationDto }
  | { kind: 'secret'; secret: string }
  | null;

interface IntegrationsPanelProps {
  workspaceId: string;
  /** Owners and admins change integrations; members see them. */
  canManage: boolean;
}

function asFailure(error: unknown): FormFailure {
  const fields: FieldErrors = {};
  for (const [field, text] of Object.entries(fieldErrors(error))) fields[formFieldOf(field)] = text;
  return { message: errorMessage(error), fields };
}

/** The workspace's integrations: list, add, edit, enable, test, activity, delete. */
export function IntegrationsPanel({ workspaceId, canManage }: IntegrationsPanelProps) {
  const { toast } = useToast();
  const integrations = useGetIntegrationsQuery(workspaceId);
  const [createIntegration] = useCreateIntegrationMutation();
  const [updateIntegration] = useUpdateIntegrationMutation();
  const [deleteIntegration] = useDeleteIntegrationMutation();
  const [testIntegration] = useTestIntegrationMutation();
  const [resendDelivery] = useResendDeliveryMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [testingId, setTestingId] = useState<string | null>(null);
  const close = () => setDialog(null);

  const create = async (values: IntegrationFormValues) => {
    try {
      const created = await createIntegration({ workspaceId, body: createBodyOf(values) }).unwrap();
      toast({ title: 'Integration added', description: `${created.name} will receive matching notifications.` });
      setDialog(created.revealedSecret ? { kind: 'secret', secret: created.revealedSecret } : null);
      return null;
    } catch (caught) {
      return asFailure(caught);
    }
  };

  const edit = (integration: IntegrationDto) => async (values: IntegrationFormValues) => {
    try {
      await updateIntegration({
        workspaceId,
        id: integration.id,
        body: { name: values.name.trim(), config: configOf(values), rules: rulesOf(values), enabled: values.enabled },
      }).unwrap();
      toast({ title: 'Integration saved', description: `${values.name.trim()} is up to date.` });
      close();
      return null;
    } catch (caught) {
      return asFailure(caught);
    }
  };

  const testWith =
    (integration?: IntegrationDto) =>
    async (values: IntegrationFormValues): Promise<DeliveryOutcome | string> => {
      try {
        return await testIntegration(
          integration
            ? { workspaceId, id: integration.id, config: configOf(values) }
            : { workspaceId, kind: values.kind, config: configOf(values) },
        ).unwrap();
      } catch (caught) {
        return errorMessage(caught);
      }
    };

  const testSaved = async (integration: IntegrationDto) => {
    setTestingId(integration.id);
    try {
      const outcome = await testIntegration({ workspaceId, id: integration.id }).unwrap();
      toast(
        outcome.ok
          ? {
              title: 'Test delivered',
              description: `${integration.name} answered${outcome.statusCode ? ` ${outcome.statusCode}` : ''} in ${Math.round(outcome.latencyMs)} ms.`,
            }
          : { title: 'Test failed', description: outcome.error ?? 'No details', variant: 'destructive' },
      );
    } catch (caught) {
      toast({ title: 'Test failed', description: errorMessage(caught), variant: 'destructive' });
    } finally {
      setTestingId(null);
    }
  };

  const toggle = async (integration: IntegrationDto, enabled: boolean) => {
    try {
      await updateIntegration({ workspaceId, id: integration.id, body: { enabled } }).unwrap();
      toast({ title: enabled ? 'Integration enabled' : 'Integration disabled', description: integration.name });
    } catch (caught) {
      toast({ title: 'Could not change the integration', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  const remove = (integration: IntegrationDto) => async () => {
    try {
      await deleteIntegration({ workspaceId, id: integration.id }).unwrap();
      toast({ title: 'Integration deleted', description: `${integration.name} no longer receives notifications.` });
      close();
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };

  const resend = (integration: IntegrationDto) => async (activity: IntegrationActivityDto) => {
    try {
      await resendDelivery({ workspaceId, id: integration.id, activityId: activity.id }).unwrap();
      toast({ title: 'Sending again', description: activity.summary });
    } catch (caught) {
      toast({ title: 'Could not send again', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  const list = integrations.currentData;
  return (
    <>
      {canManage && list && list.length > 0 && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'add' })}>
            Add integration
          </Button>
        </Stack>
      )}
      {integrations.isError && !list && <Alert severity="error">{errorMessage(integrations.error)}</Alert>}
      {!list && !integrations.isError && (
        <Box
          aria-label="Loading integrations"
          sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}
        >
          {[0, 1].map((i) => (
            <Skeleton key={i} variant="rounded" height={170} />
          ))}
        </Box>
      )}
      {list && list.length === 0 && (
        <EmptyState
          icon={<ExtensionOutlinedIcon />}
          title="No integrations yet"
          description="Send server outages, schema drift and other alerts to Slack, PagerDuty, a signed webhook or email. Each integration can be tested and keeps a log of its deliveries."
        >
          {canManage ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'add' })}>
              Add integration
            </Button>
          ) : (
            <Alert severity="info">Owners and admins of this workspace add integrations.</Alert>
          )}
        </EmptyState>
      )}
      {list && list.length > 0 && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          {list.map((integration) => (
            <IntegrationCard
              key={integration.id}
              integration={integration}
              canManage={canManage}
              testing={testingId === integration.id}
              onToggle={(enabled) => void toggle(integration, enabled)}
              onEdit={() => setDialog({ kind: 'edit', integration })}
              onTest={() => void testSaved(integration)}
              onActivity={() => setDialog({ kind: 'activity', integration })}
              onDelete={() => setDialog({ kind: 'delete', integration })}
            />
          ))}
        </Box>
      )}
      {dialog?.kind === 'add' && (
        <IntegrationFormDialog
          title="Add integration"
          submitLabel="Add integration"
          onSubmit={create}
          onTest={testWith()}
          onClose={close}
        />
      )}
      {dialog?.kind === 'edit' && (
        <IntegrationFormDialog
          title={`Edit ${dialog.integration.name}`}
          submitLabel="Save"
          editing
          initial={formFromIntegration(dialog.integration)}
          onSubmit={edit(dialog.integration)}
          onTest={testWith(dialog.integration)}
          onClose={close}
        />
      )}
      {dialog?.kind === 'activity' && (
        <ActivityLogDialog
          workspaceId={workspaceId}
          integration={dialog.integration}
          canResend={canManage}
          onResend={(activity) => void resend(dialog.integration)(activity)}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDestructiveDialog
          title={`Delete ${dialog.integration.name}?`}
          confirmLabel="Delete"
          busyLabel="Deleting…"
          onConfirm={remove(dialog.integration)}
          onClose={close}
        >
          It stops receiving notifications at once, and its delivery log is deleted with it.
        </ConfirmDestructiveDialog>
      )}
      {dialog?.kind === 'secret' && <RevealedSecretDialog secret={dialog.secret} onClose={close} />}
    </>
  );
}
