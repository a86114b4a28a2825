import { useNavigate } from 'react-router-dom';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import PersonOutlineIcon from '@mui/icons-material/PersonOutlineOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { selectCurrentUser } from '../features/auth/authSlice';
import { logout } from '../features/auth/session';
import { HeaderMenu, HeaderMenuItem, useHeaderMenu } from './HeaderMenu';

export const FALLBACK_USER_NAME = 'User';

/** SPEC §2 Header: the avatar menu with name (or 'User'), email, Profile, Settings, Sign out. */
export function UserMenu() {
  const user = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { anchor, close, triggerProps } = useHeaderMenu();
  const name = user?.fullName.trim() || FALLBACK_USER_NAME;
  const go = (to: string) => {
    close();
    void navigate(to);
  };
  const signOut = async () => {
    close();
    // logout() calls the server and then always clears the tokens and the user (SPEC §4).
    await dispatch(logout());
    void navigate('/login', { replace: true });
  };

  return (
    <>
      <IconButton aria-label="Account menu" {...triggerProps} size="small">
        <Avatar
          src={user?.avatarUrl ?? undefined}
          alt={name}
          // Third-party avatar hosts are not told which page shows the picture.
          slotProps={{ img: { referrerPolicy: user?.avatarIsExternal ? 'no-referrer' : undefined } }}
          sx={{ width: 34, height: 34 }}
        >
          {name.charAt(0).toUpperCase()}
        </Avatar>
      </IconButton>
      <HeaderMenu anchor={anchor} onClose={close} minWidth={240}>
        <Box sx={{ px: 2, py: 1.25 }}>
          <Typography variant="subtitle2" noWrap>
            {name}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {user?.email ?? ''}
          </Typography>
        </Box>
        <Divider />
        <HeaderMenuItem icon={<PersonOutlineIcon fontSize="small" />} onClick={() => go('/settings?tab=profile')}>
          Profile
        </HeaderMenuItem>
        <HeaderMenuItem icon={<SettingsOutlinedIcon fontSize="small" />} onClick={() => go('/settings')}>
          Settings
        </HeaderMenuItem>
        <Divider />
        <HeaderMenuItem icon={<LogoutIcon fontSize="small" />} onClick={() => void signOut()}>
          Sign out
        </HeaderMenuItem>
      </HeaderMenu>
    </>
  );
}
