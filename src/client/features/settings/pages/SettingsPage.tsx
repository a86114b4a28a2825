import { useSearchParams } from 'react-router-dom';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { useAppSelector } from '../../../app/hooks';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { selectCurrentUser } from '../../auth/authSlice';
import { useFlags } from '../../flags/useFlag';

type SettingsTab = 'profile' | 'preferences' | 'security';

/** Account settings; `?tab=profile` (the avatar menu's Profile entry) opens the profile tab. */
export default function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const flags = useFlags();
  const user = useAppSelector(selectCurrentUser);
  const tabs: { id: SettingsTab; label: string }[] = [
    { id: 'profile', label: 'Profile' },
    ...(flags.show_personal_preferences ? [{ id: 'preferences' as const, label: 'Preferences' }] : []),
    ...(flags.show_personal_security ? [{ id: 'security' as const, label: 'Security' }] : []),
  ];
  const requested = params.get('tab');
  const tab: SettingsTab = tabs.find((t) => t.id === requested)?.id ?? 'profile';
  const name = user?.fullName?.trim() || 'User';

  return (
    <>
      <PageHeader title="Settings" subtitle="Your account" />
      <Tabs value={tab} onChange={(_, value: SettingsTab) => setParams({ tab: value })} sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}>
        {tabs.map((t) => (
          <Tab key={t.id} value={t.id} label={t.label} />
        ))}
      </Tabs>
      {tab === 'profile' && (
        <Card>
          <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2.5 }}>
            <Avatar src={user?.avatarUrl ?? undefined} alt={name} sx={{ width: 64, height: 64 }}>
              {name.charAt(0).toUpperCase()}
            </Avatar>
            <Box>
              <Typography variant="h6" component="h2">
                {name}
              </Typography>
              <Typography color="text.secondary">{user?.email}</Typography>
            </Box>
          </CardContent>
        </Card>
      )}
      {tab === 'preferences' && (
        <EmptyState
          icon={<TuneOutlinedIcon />}
          title="Preferences"
          description="Your time zone, e-mail notifications and default workspace will be set here."
          action={{ label: 'Back to the overview', to: '/dashboard' }}
        />
      )}
      {tab === 'security' && (
        <EmptyState
          icon={<LockOutlinedIcon />}
          title="Security"
          description="Password changes and your active sessions will be managed here."
          action={{ label: 'Back to the overview', to: '/dashboard' }}
        />
      )}
    </>
  );
}
