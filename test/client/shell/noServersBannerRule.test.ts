import { shouldShowNoServersBanner } from '../../../src/client/shell/noServersBannerRule';

describe("the 'No tool servers connected' rule (SPEC §2: three conditions)", () => {
  it('shows when loading is done, there are no servers, and the path is not /servers', () => {
    expect(shouldShowNoServersBanner({ loaded: true, serverCount: 0, pathname: '/dashboard' })).toBe(true);
  });
  it('hides while the list is loading', () => {
    expect(shouldShowNoServersBanner({ loaded: false, serverCount: 0, pathname: '/dashboard' })).toBe(false);
  });
  it('hides when there are servers', () => {
    expect(shouldShowNoServersBanner({ loaded: true, serverCount: 2, pathname: '/dashboard' })).toBe(false);
  });
  it('hides on /servers', () => {
    expect(shouldShowNoServersBanner({ loaded: true, serverCount: 0, pathname: '/servers' })).toBe(false);
  });
});
