import type { ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';

interface SwitchableCardTitleProps {
  name: string;
  /** The heading level of the card's name on its page. */
  component: 'h2' | 'h3';
  enabled: boolean;
  canManage: boolean;
  onToggle: (enabled: boolean) => void;
  /** Shown before the name (a kind's chip, say). */
  leading?: ReactNode;
}

/**
 * The first line of a card for something that can be switched off without being deleted (an
 * integration, an exporter): its name, cut with an ellipsis rather than pushing the switch off
 * the card, and the switch, named for what it does now ("Disable Ops pager").
 */
export function SwitchableCardTitle({
  name,
  component,
  enabled,
  canManage,
  onToggle,
  leading,
}: SwitchableCardTitleProps) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, minWidth: 0 }}>
      {leading}
      <Typography
        variant="h6"
        component={component}
        sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {name}
      </Typography>
      <Switch
        checked={enabled}
        onChange={(e) => onToggle(e.target.checked)}
        disabled={!canManage}
        slotProps={{ input: { 'aria-label': `${enabled ? 'Disable' : 'Enable'} ${name}` } }}
      />
    </Stack>
  );
}
