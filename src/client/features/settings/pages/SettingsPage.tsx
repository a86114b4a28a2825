import { useSearchParams } from 'react-router-dom';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { PageHeader } from '../../../components/PageHeader';
import { BillingTab } from '../../billing';
import { useFlags } from '../../flags/useFlag';
import { PreferencesTab } from '../components/PreferencesTab';
import { ProfileTab } from '../components/ProfileTab';
import { SecurityTab } from '../components/SecurityTab';

type SettingsTab = 'profile' | 'preferences' | 'security' | 'billing';

/** Account settings; `?tab=` opens a tab (profile from the avatar menu, billing from quota alerts). */
export default function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const flags = useFlags();
  const tabs: { id: SettingsTab; label: string }[] = [
    { id: 'profile', label: 'Profile' },
    ...(flags.show_personal_preferences ? [{ id: 'preferences' as const, label: 'Preferences' }] : []),
    ...(flags.show_personal_security ? [{ id: 'security' as const, label: 'Security' }] : []),
    { id: 'billing', label: 'Billing' },
  ];
  const requested = params.get('tab');
  const tab: SettingsTab = tabs.find((t) => t.id === requested)?.id ?? 'profile';

  return (
    <>
      <PageHeader title="Settings" subtitle="Your account" />
      <Tabs
        value={tab}
        onChange={(_, value: SettingsTab) => setParams({ tab: value })}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label="Account settings"
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((t) => (
          <Tab
            key={t.id}
            value={t.id}
            label={t.label}
            id={`settings-tab-${t.id}`}
            aria-controls={`settings-panel-${t.id}`}
          />
        ))}
      </Tabs>
      <div role="tabpanel" id={`settings-panel-${tab}`} aria-labelledby={`settings-tab-${tab}`}>
        {tab === 'profile' && <ProfileTab />}
        {tab === 'preferences' && <PreferencesTab />}
        {tab === 'security' && <SecurityTab />}
        {tab === 'billing' && <BillingTab />}
      </div>
    </>
  );
}
