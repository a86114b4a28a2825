import { theme } from '../../../src/client/app/theme';

describe('theme (SPEC §1: always dark)', () => {
  it('is dark and has no light scheme to switch to', () => {
    expect(theme.palette.mode).toBe('dark');
    expect((theme as { colorSchemes?: Record<string, unknown> }).colorSchemes?.light).toBeUndefined();
  });
});
