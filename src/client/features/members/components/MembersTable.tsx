import Avatar from '@mui/material/Avatar';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PersonRemoveOutlinedIcon from '@mui/icons-material/PersonRemoveOutlined';
import type { MemberDto } from '../../../../contract/members';
import type { MemberRole } from '../../../../contract/workspaces';
import { RelativeTime } from '../../../components/RelativeTime';
import { generatedAvatarUrl } from '../../auth';
import { MemberRoleChip } from './MemberRoleChip';

interface MembersTableProps {
  members: MemberDto[];
  currentUserId: string | null;
  /** Given only to owners and admins: the remove action per removable member. */
  onRemove?: (member: MemberDto) => void;
  /** Given only to owners and admins: changes a member's role (the server keeps one owner). */
  onRoleChange?: (member: MemberDto, role: MemberRole) => void;
  /** Owners may grant or take away the owner role; admins may not. */
  canGrantOwner?: boolean;
}

const ROLE_LABELS: Record<MemberRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** The workspace's people: name, email, role and when they joined. */
export function MembersTable({
  members,
  currentUserId,
  onRemove,
  onRoleChange,
  canGrantOwner = false,
}: MembersTableProps) {
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 3 }}>
      <Table aria-label="Workspace members">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Email</TableCell>
            <TableCell>Role</TableCell>
            <TableCell>Joined</TableCell>
            {onRemove && <TableCell align="right" aria-label="Actions" />}
          </TableRow>
        </TableHead>
        <TableBody>
          {members.map((member) => {
            const isYou = member.userId === currentUserId;
            // The owner cannot be removed (the server answers 409), and leaving is not done from here.
            const removable = Boolean(onRemove) && member.role !== 'owner' && !isYou;
            const name = member.fullName || member.email;
            return (
              <TableRow key={member.userId} aria-label={name} hover>
                <TableCell>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
                    <Avatar
                      src={generatedAvatarUrl(member.userId, member.email, member.fullName)}
                      alt=""
                      sx={{ width: 32, height: 32 }}
                    />
                    <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
                      {name}
                      {isYou && (
                        <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 0.75 }}>
                          (you)
                        </Typography>
                      )}
                    </Typography>
                  </Box>
                </TableCell>
                <TableCell>
                  <Typography variant="body2" color="text.secondary" noWrap>
                    {member.email}
                  </Typography>
                </TableCell>
                <TableCell>
                  {onRoleChange && (canGrantOwner || member.role !== 'owner') ? (
                    <Select
                      size="small"
                      value={member.role}
                      onChange={(event) => onRoleChange(member, event.target.value)}
                      inputProps={{ 'aria-label': `Role of ${name}` }}
                      data-testid="member-role"
                      sx={{ minWidth: 120 }}
                    >
                      {(canGrantOwner ? (['owner', 'admin', 'member'] as const) : (['admin', 'member'] as const)).map(
                        (role) => (
                          <MenuItem key={role} value={role}>
                            {ROLE_LABELS[role]}
                          </MenuItem>
                        ),
                      )}
                    </Select>
                  ) : (
                    <MemberRoleChip role={member.role} />
                  )}
                </TableCell>
                <TableCell>
                  <Typography variant="body2" color="text.secondary" component="span">
                    <RelativeTime value={member.joinedAt} />
                  </Typography>
                </TableCell>
                {onRemove && (
                  <TableCell align="right">
                    {removable && (
                      <Tooltip title="Remove from workspace">
                        <IconButton
                          size="small"
                          color="error"
                          aria-label={`Remove ${name}`}
                          onClick={() => onRemove(member)}
                        >
                          <PersonRemoveOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                )}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
