import { DEFAULT_FLAGS, isFlagOn, parseFlagOverrides, resolveFlags } from '../../src/contract/flags';

describe('feature flags (SPEC §2)', () => {
  it('defaults marketplace, performance and integrations on, most others off', () => {
    expect(DEFAULT_FLAGS.show_marketplace).toBe(true);
    expect(DEFAULT_FLAGS.show_performance).toBe(true);
    expect(DEFAULT_FLAGS.show_integrations).toBe(true);
    expect(DEFAULT_FLAGS.show_upgrade_pro).toBe(false);
    expect(DEFAULT_FLAGS.bypass_auth).toBe(false);
  });

  it('reads TOOLSCOPE_FLAGS overrides and ignores unknown names', () => {
    const overrides = parseFlagOverrides(
      'show_upgrade_pro=true, show_marketplace=false,nonsense=true,show_schema_studio',
    );
    expect(overrides).toEqual({ show_upgrade_pro: true, show_marketplace: false, show_schema_studio: true });
    const flags = resolveFlags(overrides);
    expect(flags.show_upgrade_pro).toBe(true);
    expect(flags.show_marketplace).toBe(false);
    expect('nonsense' in flags).toBe(false);
  });

  it('keeps thought tracing on whatever the override says', () => {
    expect(resolveFlags(parseFlagOverrides('show_thought_tracing=false')).show_thought_tracing).toBe(true);
  });

  it('treats unknown flags as off', () => {
    expect(isFlagOn(resolveFlags(), 'show_something_new')).toBe(false);
    expect(isFlagOn(resolveFlags(), 'show_marketplace')).toBe(true);
  });
});
