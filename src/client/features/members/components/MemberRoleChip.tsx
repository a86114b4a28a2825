import Chip from '@mui/material/Chip';
import type { MemberRole } from '../../../../contract/workspaces';

const LABELS: Record<MemberRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
const COLORS: Record<MemberRole, 'primary' | 'secondary' | 'default'> = {
  owner: 'primary',
  admin: 'secondary',
  member: 'default',
};

/** A member's role at a glance: owner and admin stand out, plain members stay quiet. */
export function MemberRoleChip({ role }: { role: MemberRole }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      label={LABELS[role]}
      color={COLORS[role]}
      data-testid="member-role"
      sx={{ fontWeight: 600 }}
    />
  );
}
