import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { AlertRuleDto } from '../../../../contract/alertRules';
import { describeRule, describeScope, STATE_LABELS } from '../alertRuleText';
import { FiringHistory } from './FiringHistory';

interface AlertRuleCardProps {
  rule: AlertRuleDto;
  canManage: boolean;
  highlighted: boolean;
  serverName: (id: string) => string;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One rule: what it watches, its state now, and its firings on demand. */
export function AlertRuleCard({
  rule,
  canManage,
  highlighted,
  serverName,
  onToggle,
  onEdit,
  onDelete,
}: AlertRuleCardProps) {
  const [showHistory, setShowHistory] = useState(highlighted);
  const state = STATE_LABELS[rule.state];
  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={rule.name}
      sx={{ borderColor: highlighted ? 'primary.main' : 'divider' }}
    >
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            {rule.name}
          </Typography>
          <Chip
            size="small"
            label={rule.enabled ? state.label : 'Off'}
            color={rule.enabled ? state.color : 'default'}
          />
          <Chip size="small" variant="outlined" label={rule.severity} />
          <Switch
            checked={rule.enabled}
            onChange={(e) => onToggle(e.target.checked)}
            disabled={!canManage}
            slotProps={{ input: { 'aria-label': `${rule.enabled ? 'Turn off' : 'Turn on'} ${rule.name}` } }}
          />
        </Stack>
        <Typography variant="body2">{describeRule(rule)}</Typography>
        <Typography variant="body2" color="text.secondary">
          {describeScope(rule, serverName)}
          {rule.quietHours
            ? ` · quiet ${rule.quietHours.start}–${rule.quietHours.end} (${rule.quietHours.timeZone})`
            : ''}
          {rule.notifyIntegrations ? '' : ' · in-app only'}
        </Typography>
        {rule.lastEvaluatedAt && (
          <Typography variant="caption" color="text.secondary">
            Last value {rule.lastValue ?? '—'} at {new Date(rule.lastEvaluatedAt).toLocaleTimeString()}
          </Typography>
        )}
        <Collapse in={showHistory} unmountOnExit>
          <Box sx={{ mt: 1.5 }}>
            <FiringHistory workspaceId={rule.workspaceId} ruleId={rule.id} />
          </Box>
        </Collapse>
      </CardContent>
      <CardActions>
        <Button size="small" onClick={() => setShowHistory((shown) => !shown)} aria-expanded={showHistory}>
          {showHistory ? 'Hide history' : 'History'}
        </Button>
        {canManage && (
          <>
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
