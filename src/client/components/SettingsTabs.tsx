import type { ReactNode } from 'react';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';

interface SettingsTabsProps<Id extends string> {
  /** The tab list's accessible name. */
  label: string;
  /** Prefix of the tabs' and the panel's element ids (`${idPrefix}-tab-profile`, `${idPrefix}-panel-profile`). */
  idPrefix: string;
  tabs: readonly { id: Id; label: string }[];
  value: Id;
  onChange: (id: Id) => void;
  /** The open tab's content, in the tab panel. */
  children: ReactNode;
}

/** The tab bar of a settings page and the panel of the open tab, linked for assistive technology. */
export function SettingsTabs<Id extends string>({
  label,
  idPrefix,
  tabs,
  value,
  onChange,
  children,
}: SettingsTabsProps<Id>) {
  return (
    <>
      <Tabs
        value={value}
        onChange={(_, next: Id) => onChange(next)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={label}
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((tab) => (
          <Tab
            key={tab.id}
            value={tab.id}
            label={tab.label}
            id={`${idPrefix}-tab-${tab.id}`}
            aria-controls={`${idPrefix}-panel-${tab.id}`}
          />
        ))}
      </Tabs>
      <div role="tabpanel" id={`${idPrefix}-panel-${value}`} aria-labelledby={`${idPrefix}-tab-${value}`}>
        {children}
      </div>
    </>
  );
}
