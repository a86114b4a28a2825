import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import type { NotificationDto } from '../../../contract/notifications';
import { RelativeTime } from '../../components/RelativeTime';
import { lineClamp } from '../../components/lineClamp';
import { SEVERITY_LOOK, TYPE_LABEL } from './notificationPresentation';

interface NotificationItemProps {
  notification: NotificationDto;
  selected: boolean;
  onToggleSelected: (id: string) => void;
  onOpen: (notification: NotificationDto) => void;
}

/** One row of the bell: severity icon and colour, type, title, message, when, and a select box. */
export function NotificationItem({ notification, selected, onToggleSelected, onOpen }: NotificationItemProps) {
  const look = SEVERITY_LOOK[notification.severity];
  const unread = !notification.isRead;
  return (
    <ListItem
      disablePadding
      data-testid="notification-item"
      data-unread={unread ? 'true' : 'false'}
      secondaryAction={
        <Checkbox
          edge="end"
          size="small"
          checked={selected}
          onChange={() => onToggleSelected(notification.id)}
          slotProps={{ input: { 'aria-label': `Select ${notification.title}` } }}
        />
      }
      sx={{ borderLeft: 3, borderColor: `${look.color}.main`, bgcolor: unread ? 'action.hover' : 'transparent' }}
    >
      <ListItemButton onClick={() => onOpen(notification)} sx={{ alignItems: 'flex-start', gap: 1.25, pr: 6 }}>
        <Box sx={{ color: `${look.color}.main`, pt: 0.25 }} aria-label={look.label} role="img">
          {look.icon}
        </Box>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
            <Typography variant="body2" noWrap sx={{ fontWeight: unread ? 700 : 500, flex: 1, minWidth: 0 }}>
              {notification.title}
            </Typography>
            {unread && (
              <Box
                component="span"
                aria-label="Unread"
                sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'primary.main', flexShrink: 0 }}
              />
            )}
          </Box>
          <Typography variant="caption" color="text.secondary" component="p" sx={lineClamp(2)}>
            {notification.message}
          </Typography>
          <Box
            sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mt: 0.5, color: 'text.secondary', fontSize: 12 }}
          >
            <Chip
              label={TYPE_LABEL[notification.type]}
              size="small"
              variant="outlined"
              color={look.color}
              sx={{ height: 20, fontSize: 11 }}
            />
            {notification.occurrences > 1 && (
              <span aria-label={`${notification.occurrences} occurrences`}>×{notification.occurrences}</span>
            )}
            <RelativeTime value={notification.updatedAt} />
          </Box>
        </Box>
      </ListItemButton>
    </ListItem>
  );
}
