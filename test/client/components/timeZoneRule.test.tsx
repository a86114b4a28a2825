import { configure, screen } from '@testing-library/react';
import { Paths } from '../../../src/contract/routes';
import type { PlatformKeyDto, PlatformKeyListResult } from '../../../src/contract/keys';
import { formatStep, stepSubtitle } from '../../../src/client/components/analytics/format';
import { setDateDisplay } from '../../../src/client/components/dates/dateDisplay';
import { formatClockTime } from '../../../src/client/components/formatting';
import { PlatformKeysSection } from '../../../src/client/features/keys/components/PlatformKeysSection';
import { renderShellApp } from '../helpers/renderShellApp';
import type { FakeApi } from '../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });

// Issue 38 item 3: one rule for every time on every screen — the zone and hour cycle chosen in
// Preferences. A user in Asia/Tokyo with 24-hour time: 08:23:02 UTC is 17:23 on every screen
// (the test runs in whatever zone this machine has; Tokyo is never it by accident on CI's UTC).
const INSTANT = '2026-11-28T08:23:02.000Z';

let api: FakeApi | undefined;
beforeEach(() => setDateDisplay({ timeZone: 'Asia/Tokyo', timeFormat: '24h', dateFormat: 'iso' }));
afterEach(() => {
  api?.restore();
  setDateDisplay({});
});

describe('the time-zone rule', () => {
  it('shows the same hour on the activity stream and on the analytics and performance axes', () => {
    expect(formatClockTime(INSTANT)).toBe('17:23:02.000');
    expect(formatStep(INSTANT, '1h')).toBe('Nov 28, 17:23');
    expect(formatStep(INSTANT, '1m')).toBe('17:23');
    expect(stepSubtitle('1h')).toBe('Per hour (Asia/Tokyo)');
    // Daily buckets are UTC days on the server: shown as their UTC date and marked so.
    expect(formatStep('2026-11-28T00:00:00.000Z', '1d')).toBe('Nov 28');
    expect(stepSubtitle('1d')).toBe('Per day (days in UTC)');
  });

  it('follows the 12-hour choice too', () => {
    setDateDisplay({ timeZone: 'Asia/Tokyo', timeFormat: '12h', dateFormat: 'iso' });
    expect(formatClockTime(INSTANT)).toBe('5:23:02.000 PM');
    expect(formatStep(INSTANT, '1h')).toBe('Nov 28, 5:23 PM');
  });

  it('shows the same hour on the workspace Security tab (a revoked key, refusals)', async () => {
    const key: PlatformKeyDto = {
      id: 'key-1',
      name: 'CI agent',
      prefix: 'tsk_abcdefgh',
      scopes: { allServers: true, serverIds: [] },
      expiresAt: null,
      createdAt: INSTANT,
      createdBy: null,
      createdByName: null,
      updatedAt: INSTANT,
      lastUsedAt: null,
      revokedAt: INSTANT,
      revokeReason: 'Rotated',
      status: 'revoked',
      refusals: [],
    };
    const list: PlatformKeyListResult = {
      keys: [key],
      unknownKeyRefusals: [{ reason: 'unknown', serverId: null, count: 2, at: INSTANT, presentedPrefix: 'tsk_zzzz' }],
    };
    const context = renderShellApp(<PlatformKeysSection workspaceId="ws-1" canManage servers={[]} />, {
      signedIn: true,
      configureApi: (fake) => fake.on('GET', `${Paths.workspace('ws-1')}/platform/keys`, { body: list }),
    });
    api = context.api;
    expect(await screen.findByText('CI agent')).toBeInTheDocument();
    const text = document.body.textContent;
    // The revoked chip's tooltip (its accessible name).
    expect(screen.getByLabelText('Rotated (2026-11-28, 17:23:02)')).toBeInTheDocument();
    expect(text).toContain('(latest 2026-11-28, 17:23:02).');
    expect(document.body.textContent).not.toMatch(/PM|AM/);
  });
});
