import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../../components/PageHeader';
import { SettingsTabs } from '../../../components/SettingsTabs';
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
      <SettingsTabs
        label="Account settings"
        idPrefix="settings"
        tabs={tabs}
        value={tab}
        onChange={(value) => setParams({ tab: value })}
      >
        {tab === 'profile' && <ProfileTab />}
        {tab === 'preferences' && <PreferencesTab />}
        {tab === 'security' && <SecurityTab />}
        {tab === 'billing' && <BillingTab />}
      </SettingsTabs>
    </>
  );
}
