import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { IntegrationDto } from '../../../../contract/integrations';
import { RelativeTime } from '../../../components/RelativeTime';
import { SwitchableCardTitle } from '../../../components/SwitchableCardTitle';
import { KIND_LABELS } from '../integrationForm';

interface IntegrationCardProps {
  integration: IntegrationDto;
  canManage: boolean;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onTest: () => void;
  onActivity: () => void;
  onDelete: () => void;
  testing: boolean;
}

function target(integration: IntegrationDto): string {
  const c = integration.config;
  if (integration.kind === 'email') return Array.isArray(c.to) ? (c.to as string[]).join(', ') : '';
  if (integration.kind === 'webhook') return textOf(c.url);
  if (integration.kind === 'pagerduty') return `Routing key ${textOf(c.routingKey)}`;
  return textOf(c.webhookUrl);
}

/** A config value shown as it is when it is text; blank when missing (or, unexpectedly, not text). */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** One integration: where it sends, what it sends, whether the last delivery worked. */
export function IntegrationCard({
  integration,
  canManage,
  onToggle,
  onEdit,
  onTest,
  onActivity,
  onDelete,
  testing,
}: IntegrationCardProps) {
  const { rules } = integration;
  return (
    <Card variant="outlined" component="article" aria-label={`${integration.name} integration`}>
      <CardContent>
        <SwitchableCardTitle
          name={integration.name}
          component="h2"
          enabled={integration.enabled}
          canManage={canManage}
          onToggle={onToggle}
          leading={<Chip size="small" label={KIND_LABELS[integration.kind]} color="primary" variant="outlined" />}
        />
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {target(integration)}
        </Typography>
        <Typography variant="body2" sx={{ mt: 1 }}>
          {rules.types.length === 0 ? 'Every notification type' : rules.types.join(', ')} · {rules.minSeverity} and
          above
        </Typography>
        <Box sx={{ mt: 1 }}>
          {integration.lastDeliveryAt ? (
            <Typography
              variant="caption"
              color={integration.lastDeliveryStatus === 'failed' ? 'error.main' : 'text.secondary'}
            >
              Last delivery {integration.lastDeliveryStatus} <RelativeTime value={integration.lastDeliveryAt} />
            </Typography>
          ) : (
            <Typography variant="caption" color="text.secondary">
              Nothing sent yet
            </Typography>
          )}
        </Box>
        {integration.disabledReason && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {integration.disabledReason}
          </Alert>
        )}
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap' }}>
        <Button size="small" onClick={onActivity}>
          Activity
        </Button>
        {canManage && (
          <>
            <Button size="small" onClick={onTest} disabled={testing}>
              {testing ? 'Sending…' : 'Send test'}
            </Button>
            <Button size="small" onClick={onEdit}>
              Edit
            </Button>
            <Button size="small" color="error" onClick={onDelete}>
              Delete
            </Button>
          </>
        )}
      </CardActions>
    </Card>
  );
}
