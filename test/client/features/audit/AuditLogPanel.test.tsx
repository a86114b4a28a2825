import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuditPaths, type AuditEventDto } from '../../../../src/contract/audit';
import { WorkspaceAuditLogTab } from '../../../../src/client/features/audit';
import { renderShellApp } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

const PATH = AuditPaths.audit('ws-1');
const event = (n: number, overrides: Partial<AuditEventDto> = {}): AuditEventDto => ({
  id: `event-${n}`,
  action: 'member.role_changed',
  actor: { userId: 'u-1', email: 'owner@example.com' },
  target: `member${n}@example.com`,
  details: { from: 'member', to: 'admin' },
  createdAt: new Date(Date.UTC(2026, 10, 25, 12, 0, 0) - n * 60_000).toISOString(),
  ...overrides,
});

let api: FakeApi | undefined;
afterEach(() => api?.restore());

describe('Audit log tab', () => {
  it('lists security events with who did what to whom, and loads older pages', async () => {
    const requested: (string | null)[] = [];
    const firstPage = [
      event(0, {
        action: 'auth.refresh_token_reused',
        actor: null,
        target: 'owner@example.com',
        details: { ip: '203.0.113.9' },
      }),
      ...Array.from({ length: 49 }, (_, i) => event(i + 1)),
    ];
    const olderPage = [event(60, { action: 'key.revoked', target: 'ci-agent', details: {} })];
    ({ api } = renderShellApp(<WorkspaceAuditLogTab workspaceId="ws-1" canView />, {
      signedIn: true,
      path: '/workspace/ws-1/settings?tab=audit',
      configureApi: (fake) =>
        fake.on('GET', PATH, ({ url }) => {
          const before = url.searchParams.get('before');
          requested.push(before);
          return { body: { events: before ? olderPage : firstPage } };
        }),
    }));

    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(await within(table).findByText('Stolen sign-in detected')).toBeInTheDocument();
    // The system's own events name Toolscope as the actor.
    expect(within(table).getByText('Toolscope')).toBeInTheDocument();
    expect(within(table).getByText('ip: 203.0.113.9')).toBeInTheDocument();
    expect(within(table).getByText('member1@example.com')).toBeInTheDocument();
    expect(within(table).getAllByText('from: member · to: admin')).toHaveLength(49);

    await userEvent.click(screen.getByRole('button', { name: 'Load older events' }));
    expect(await within(table).findByText('Platform key revoked')).toBeInTheDocument();
    expect(requested).toEqual([null, firstPage.at(-1)!.createdAt]);
    // The older page was short: the log's beginning, nothing more to load.
    expect(screen.queryByRole('button', { name: 'Load older events' })).not.toBeInTheDocument();
  });

  it('says so when there are no events, and tells a member the log is for owners and admins', async () => {
    ({ api } = renderShellApp(<WorkspaceAuditLogTab workspaceId="ws-1" canView />, {
      signedIn: true,
      path: '/workspace/ws-1/settings?tab=audit',
      configureApi: (fake) => fake.on('GET', PATH, { body: { events: [] } }),
    }));
    expect(await screen.findByText('No security events yet.')).toBeInTheDocument();
    api.restore();

    const requested: string[] = [];
    ({ api } = renderShellApp(<WorkspaceAuditLogTab workspaceId="ws-2" canView={false} />, {
      signedIn: true,
      path: '/workspace/ws-2/settings?tab=audit',
      configureApi: (fake) =>
        fake.on('GET', AuditPaths.audit('ws-2'), ({ url }) => (requested.push(url.pathname), { body: { events: [] } })),
    }));
    expect(await screen.findByText('Only workspace owners and admins can read the audit log.')).toBeInTheDocument();
    expect(requested).toEqual([]);
  });
});
