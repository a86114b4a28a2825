import { DEFAULT_FLAGS, resolveFlags } from '../../../src/contract/flags';
import { isNavItemActive, NAV_SECTIONS, visibleSections } from '../../../src/client/shell/navigation';

const labels = (flags = DEFAULT_FLAGS) =>
  visibleSections(flags).map((section) => [section.title, section.items.map((item) => item.label)]);

describe('sidebar sections (SPEC §2 Shell)', () => {
  it('shows the five sections with the default flags: marketplace, reasoning, performance and integrations on', () => {
    expect(labels()).toEqual([
      [null, ['Overview']],
      ['Connections', ['Tool Servers', 'Marketplace']],
      ['Observability', ['Sessions', 'Activity Stream', 'Tool Reasoning', 'Analytics', 'Alert Rules']],
      ['Cost & Performance', ['Performance']],
      ['Development', ['Integrations']],
    ]);
  });

  it('shows every gated item when its flag is on', () => {
    const flags = resolveFlags({ show_cost_analytics: true, show_cost_attribution: true, show_schema_studio: true });
    expect(labels(flags)).toEqual([
      [null, ['Overview']],
      ['Connections', ['Tool Servers', 'Marketplace']],
      ['Observability', ['Sessions', 'Activity Stream', 'Tool Reasoning', 'Analytics', 'Alert Rules']],
      ['Cost & Performance', ['Cost Analytics', 'Cost Attribution', 'Performance']],
      ['Development', ['Schema Studio', 'Integrations']],
    ]);
  });

  it('drops a section whose items are all switched off', () => {
    const flags = resolveFlags({ show_performance: false, show_integrations: false, show_marketplace: false });
    expect(labels(flags).map(([title]) => title)).toEqual([null, 'Connections', 'Observability']);
    expect(labels(flags)[1]).toEqual(['Connections', ['Tool Servers']]);
  });

  it('links every item to a route of SPEC §2', () => {
    const paths = NAV_SECTIONS.flatMap((section) => section.items.map((item) => item.to));
    expect(paths).toEqual([
      '/',
      '/servers',
      '/marketplace',
      '/sessions',
      '/activity-stream',
      '/thought-tracing',
      '/analytics',
      // Beyond SPEC §2 (issue 36): the workspace's alert rules.
      '/alert-rules',
      '/cost-analytics',
      '/cost-attribution',
      '/performance',
      '/schema-studio',
      '/integrations',
    ]);
  });

  it('marks the current item, including its sub-pages, and Overview on /dashboard', () => {
    const sessions = NAV_SECTIONS[2].items[0];
    const overview = NAV_SECTIONS[0].items[0];
    expect(isNavItemActive(sessions, '/sessions/abc')).toBe(true);
    expect(isNavItemActive(sessions, '/sessions-archive')).toBe(false);
    expect(isNavItemActive(overview, '/dashboard')).toBe(true);
    expect(isNavItemActive(overview, '/servers')).toBe(false);
  });
});
