import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import type { AlertRuleDto, CreateAlertRuleBody } from '../../../../contract/alertRules';
import { errorMessage } from '../../../api/apiError';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';
import { EmptyState } from '../../../components/EmptyState';
import { useToast } from '../../../components/toast';
import { useServersList } from '../../servers/useServersList';
import {
  useCreateAlertRuleMutation,
  useDeleteAlertRuleMutation,
  useGetAlertRulesQuery,
  useUpdateAlertRuleMutation,
} from '../alertRulesApi';
import { AlertRuleCard } from './AlertRuleCard';
import { AlertRuleFormDialog } from './AlertRuleFormDialog';

type Editing = { kind: 'new' } | { kind: 'edit'; rule: AlertRuleDto } | { kind: 'delete'; rule: AlertRuleDto } | null;

/** The workspace's rules, with add, edit, turn on/off and delete for owners and admins. */
export function AlertRulesPanel({
  workspaceId,
  canManage,
  highlightedId,
}: {
  workspaceId: string;
  canManage: boolean;
  highlightedId: string | null;
}) {
  const { toast } = useToast();
  const rules = useGetAlertRulesQuery(workspaceId);
  const { servers = [] } = useServersList();
  const [create] = useCreateAlertRuleMutation();
  const [update] = useUpdateAlertRuleMutation();
  const [remove] = useDeleteAlertRuleMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const serverName = (id: string) => servers.find((s) => s.id === id)?.name ?? 'a deleted server';

  const save = async (body: CreateAlertRuleBody) => {
    if (editing?.kind === 'edit') {
      await update({ workspaceId, id: editing.rule.id, body }).unwrap();
      toast({ title: 'Alert rule saved', description: body.name });
    } else {
      await create({ workspaceId, body }).unwrap();
      toast({ title: 'Alert rule created', description: body.name });
    }
    setEditing(null);
  };
  const toggle = async (rule: AlertRuleDto, enabled: boolean) => {
    try {
      await update({ workspaceId, id: rule.id, body: { enabled } }).unwrap();
    } catch (caught) {
      toast({ title: 'Could not change the rule', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {canManage && (
        <Box>
          <Button variant="contained" onClick={() => setEditing({ kind: 'new' })}>
            New rule
          </Button>
        </Box>
      )}
      {rules.isLoading && <Skeleton variant="rounded" height={120} />}
      {rules.error && <Alert severity="error">{errorMessage(rules.error)}</Alert>}
      {rules.data?.length === 0 && (
        <EmptyState
          title="No alert rules yet"
          description="Be told when your thresholds are crossed: a tool's error rate, a server's p95, cost per day, a client calling a tool it never called before, calls dropping to zero in business hours."
        />
      )}
      {rules.data?.map((rule) => (
        <AlertRuleCard
          key={rule.id}
          rule={rule}
          canManage={canManage}
          highlighted={rule.id === highlightedId}
          serverName={serverName}
          onToggle={(enabled) => void toggle(rule, enabled)}
          onEdit={() => setEditing({ kind: 'edit', rule })}
          onDelete={() => setEditing({ kind: 'delete', rule })}
        />
      ))}
      {(editing?.kind === 'new' || editing?.kind === 'edit') && (
        <AlertRuleFormDialog
          workspaceId={workspaceId}
          rule={editing.kind === 'edit' ? editing.rule : undefined}
          servers={servers}
          onClose={() => setEditing(null)}
          onSave={save}
        />
      )}
      {editing?.kind === 'delete' && (
        <ConfirmDestructiveDialog
          title={`Delete ${editing.rule.name}?`}
          confirmLabel="Delete"
          busyLabel="Deleting…"
          onClose={() => setEditing(null)}
          onConfirm={async () => {
            try {
              await remove({ workspaceId, id: editing.rule.id }).unwrap();
              setEditing(null);
              return null;
            } catch (caught) {
              return errorMessage(caught);
            }
          }}
        >
          The rule and its history of firings are deleted. Notifications it raised stay.
        </ConfirmDestructiveDialog>
      )}
    </Box>
  );
}
