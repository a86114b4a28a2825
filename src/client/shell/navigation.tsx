import type { ReactNode } from 'react';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import StreamOutlinedIcon from '@mui/icons-material/StreamOutlined';
import PsychologyOutlinedIcon from '@mui/icons-material/PsychologyOutlined';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import NotificationsActiveOutlinedIcon from '@mui/icons-material/NotificationsActiveOutlined';
import PaidOutlinedIcon from '@mui/icons-material/PaidOutlined';
import PieChartOutlineIcon from '@mui/icons-material/PieChartOutlined';
import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import DataObjectOutlinedIcon from '@mui/icons-material/DataObjectOutlined';
import ExtensionOutlinedIcon from '@mui/icons-material/ExtensionOutlined';
import type { FlagName, Flags } from '../../contract/flags';

export interface NavItem {
  label: string;
  to: string;
  icon: ReactNode;
  /** Shown only when this flag is on. */
  flag?: FlagName;
  /** Other paths that mark this item as the current one. */
  alsoActiveOn?: string[];
}

export interface NavSection {
  /** Sections without a title render their items at the top. */
  title: string | null;
  items: NavItem[];
}

// SPEC §2 Shell: the five sections and their flag gating. Overview points at "/" as the spec
// says; "/" sends a signed-in user on to /dashboard, so it is highlighted there too.
export const NAV_SECTIONS: NavSection[] = [
  {
    title: null,
    items: [{ label: 'Overview', to: '/', icon: <DashboardOutlinedIcon />, alsoActiveOn: ['/dashboard'] }],
  },
  {
    title: 'Connections',
    items: [
      { label: 'Tool Servers', to: '/servers', icon: <DnsOutlinedIcon /> },
      { label: 'Marketplace', to: '/marketplace', icon: <StorefrontOutlinedIcon />, flag: 'show_marketplace' },
    ],
  },
  {
    title: 'Observability',
    items: [
      { label: 'Sessions', to: '/sessions', icon: <ForumOutlinedIcon /> },
      { label: 'Activity Stream', to: '/activity-stream', icon: <StreamOutlinedIcon /> },
      {
        label: 'Tool Reasoning',
        to: '/thought-tracing',
        icon: <PsychologyOutlinedIcon />,
        flag: 'show_thought_tracing',
      },
      { label: 'Analytics', to: '/analytics', icon: <InsightsOutlinedIcon /> },
      { label: 'Alert Rules', to: '/alert-rules', icon: <NotificationsActiveOutlinedIcon /> },
    ],
  },
  {
    title: 'Cost & Performance',
    items: [
      { label: 'Cost Analytics', to: '/cost-analytics', icon: <PaidOutlinedIcon />, flag: 'show_cost_analytics' },
      {
        label: 'Cost Attribution',
        to: '/cost-attribution',
        icon: <PieChartOutlineIcon />,
        flag: 'show_cost_attribution',
      },
      { label: 'Performance', to: '/performance', icon: <SpeedOutlinedIcon />, flag: 'show_performance' },
    ],
  },
  {
    title: 'Development',
    items: [
      { label: 'Schema Studio', to: '/schema-studio', icon: <DataObjectOutlinedIcon />, flag: 'show_schema_studio' },
      { label: 'Integrations', to: '/integrations', icon: <ExtensionOutlinedIcon />, flag: 'show_integrations' },
    ],
  },
];

/** The sections with the items the flags allow; a section with nothing left is dropped. */
export function visibleSections(flags: Flags, sections: NavSection[] = NAV_SECTIONS): NavSection[] {
  return sections
    .map((section) => ({ ...section, items: section.items.filter((item) => !item.flag || flags[item.flag]) }))
    .filter((section) => section.items.length > 0);
}

/** Whether `pathname` belongs to the item (its own subtree, e.g. /sessions/abc for Sessions). */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  const paths = [item.to, ...(item.alsoActiveOn ?? [])];
  return paths.some((path) => (path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`)));
}
