import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MemberDto } from '../../../../src/contract/members';
import type { PendingInvitation } from '../../../../src/client/features/members/memberRolesApi';
import { Paths } from '../../../../src/contract/routes';
import MembersPage from '../../../../src/client/features/members/pages/MembersPage';
import { renderShellApp, TEST_USER_DTO, TEST_WORKSPACES, type ShellTestOptions } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

const MEMBERS_PATH = `${Paths.workspace('ws-1')}/members`;
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000).toISOString();

const OWNER: MemberDto = {
  userId: 'user-1',
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
  role: 'owner',
  joinedAt: daysAgo(30),
};
const GRACE: MemberDto = {
  userId: '7b0c9c1e-0000-4000-8000-000000000002',
  email: 'grace@example.com',
  fullName: 'Grace Hopper',
  role: 'admin',
  joinedAt: daysAgo(3),
};
const ALAN: MemberDto = {
  userId: '7b0c9c1e-0000-4000-8000-000000000003',
  email: 'alan@example.com',
  fullName: 'Alan Turing',
  role: 'member',
  joinedAt: daysAgo(1),
};

let api: FakeApi | undefined;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => api?.restore());

function renderPage(options: Partial<ShellTestOptions> & { members?: () => MemberDto[] } = {}) {
  const listed = options.members ?? (() => [OWNER, GRACE, ALAN]);
  const context = renderShellApp(<MembersPage />, {
    signedIn: true,
    path: '/members',
    ...options,
    configureApi: (fake) => {
      fake.on('GET', MEMBERS_PATH, () => ({ body: { members: listed() } }));
      options.configureApi?.(fake);
    },
  });
  api = context.api;
  return context;
}

async function openAddDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Add member' }));
  return screen.getByRole('dialog', { name: 'Add member' });
}

describe('Members page', () => {
  it('shows a skeleton while the members load', async () => {
    let answer: (members: MemberDto[]) => void = () => undefined;
    renderPage({
      configureApi: (fake) =>
        fake.on(
          'GET',
          MEMBERS_PATH,
          () => new Promise((resolve) => (answer = (members) => resolve({ body: { members } }))),
        ),
    });
    expect(screen.getByLabelText('Loading members')).toBeInTheDocument();
    await waitFor(() => expect(api?.calls).toContain(`GET ${MEMBERS_PATH}`));
    answer([OWNER]);
    expect(await screen.findByRole('row', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading members')).not.toBeInTheDocument();
  });

  it('lists each member with name, email, role and when they joined', async () => {
    renderPage();
    const grace = await screen.findByRole('row', { name: 'Grace Hopper' });
    expect(within(grace).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(grace).getByTestId('member-role')).toHaveTextContent('Admin');
    expect(within(grace).getByText('3 days ago')).toBeInTheDocument();

    const ada = screen.getByRole('row', { name: 'Ada Lovelace' });
    expect(within(ada).getByTestId('member-role')).toHaveTextContent('Owner');
    expect(within(ada).getByText('(you)')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: 'Alan Turing' })).getByText('yesterday')).toBeInTheDocument();
  });

  it('invites a person by email and role (202): the list stays as it is until they accept', async () => {
    let sent: unknown;
    renderPage({
      members: () => [OWNER],
      configureApi: (fake) =>
        fake.on('POST', MEMBERS_PATH, ({ body }) => {
          sent = body;
          return {
            status: 202,
            body: {
              message: 'Invitation sent to katherine@example.com',
              invitation: {
                id: '7b0c9c1e-0000-4000-8000-000000000009',
                email: 'katherine@example.com',
                role: 'admin',
                expiresAt: new Date().toISOString(),
              },
            },
          };
        }),
    });

    const dialog = await openAddDialog();
    const submit = within(dialog).getByRole('button', { name: 'Add member' });
    expect(submit).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'katherine@example.com');
    await userEvent.click(within(dialog).getByRole('radio', { name: /^Admin/ }));
    await userEvent.click(submit);

    expect(await screen.findByText('Invitation sent')).toBeInTheDocument();
    expect(sent).toEqual({ email: 'katherine@example.com', role: 'admin' });
    expect(screen.queryByRole('dialog', { name: 'Add member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('row', { name: 'Katherine Johnson' })).not.toBeInTheDocument();
  });

  it('lists a new invitation under Pending at once, without a reload (issue 38)', async () => {
    const invitations: PendingInvitation[] = [];
    renderPage({
      members: () => [OWNER],
      configureApi: (fake) => {
        fake.on('GET', Paths.workspaceInvitations('ws-1'), () => ({ body: { invitations } }));
        fake.on('POST', MEMBERS_PATH, () => {
          invitations.push({
            id: '7b0c9c1e-0000-4000-8000-000000000010',
            email: 'dorothy@example.com',
            role: 'member',
            invitedByName: 'Ada Lovelace',
            createdAt: new Date().toISOString(),
            expiresAt: new Date(Date.now() + 14 * 86_400_000).toISOString(),
          });
          return {
            status: 202,
            body: { message: 'Invitation sent to dorothy@example.com', invitation: invitations[0] },
          };
        });
      },
    });
    const dialog = await openAddDialog();
    // An address without an account is invited too: the dialog says so rather than "They need an account".
    expect(dialog).toHaveTextContent('an address without a Toolscope account can sign up with it and accept');
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'dorothy@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));
    const pending = await screen.findByRole('list', { name: 'Pending invitations' });
    expect(within(pending).getByText('dorothy@example.com')).toBeInTheDocument();
  });

  it('says at the email field when no account uses that email (404) and keeps the dialog open', async () => {
    renderPage({
      configureApi: (fake) =>
        fake.on('POST', MEMBERS_PATH, {
          status: 404,
          body: { message: 'No Toolscope account uses that email; ask them to sign up first', code: 'not_found' },
        }),
    });
    const dialog = await openAddDialog();
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'nobody@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));

    expect(
      await within(dialog).findByText('No Toolscope account uses that email; ask them to sign up first'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/^Email/)).toHaveValue('nobody@example.com');
  });

  it("shows the server's field error for an existing member (409)", async () => {
    renderPage({
      configureApi: (fake) =>
        fake.on('POST', MEMBERS_PATH, {
          status: 409,
          body: {
            message: 'That person is already a member of this workspace',
            code: 'conflict',
            fields: { email: 'Already a member' },
          },
        }),
    });
    const dialog = await openAddDialog();
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'grace@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));

    expect(await within(dialog).findByText('Already a member')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('removes a member after confirmation; the owner and yourself have no remove action', async () => {
    let members = [OWNER, GRACE, ALAN];
    const removed: string[] = [];
    renderPage({
      members: () => members,
      configureApi: (fake) =>
        fake.on('DELETE', `${MEMBERS_PATH}/${ALAN.userId}`, () => {
          removed.push(ALAN.userId);
          members = [OWNER, GRACE];
          return { status: 204 };
        }),
    });

    const alan = await screen.findByRole('row', { name: 'Alan Turing' });
    expect(
      within(screen.getByRole('row', { name: 'Ada Lovelace' })).queryByRole('button', { name: /Remove/ }),
    ).not.toBeInTheDocument();
    await userEvent.click(within(alan).getByRole('button', { name: 'Remove Alan Turing' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Alan Turing?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(removed).toEqual([]);

    await userEvent.click(within(alan).getByRole('button', { name: 'Remove Alan Turing' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Remove Alan Turing?' })).getByRole('button', {
        name: 'Remove member',
      }),
    );

    await waitFor(() => expect(screen.queryByRole('row', { name: 'Alan Turing' })).not.toBeInTheDocument());
    expect(removed).toEqual([ALAN.userId]);
    expect(await screen.findByText('Member removed')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Grace Hopper' })).toBeInTheDocument();
  });

  it('shows a plain member the list without add or remove actions', async () => {
    renderPage({
      workspaces: [{ ...TEST_WORKSPACES[0], id: 'ws-1', name: 'Platform Team', workspaceType: 'team', role: 'member' }],
    });
    expect(await screen.findByRole('row', { name: 'Grace Hopper' })).toBeInTheDocument();
    // The role arrives with the workspace list; wait for it so the check below is not vacuous.
    expect(await screen.findByText('The people who share Platform Team')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
  });

  it('tells an account with an unverified address why no invitation is listed, and mails the link again', async () => {
    renderPage({
      user: { ...TEST_USER_DTO, emailVerified: false },
      configureApi: (fake) => {
        fake.on('GET', Paths.myInvitations, { body: { invitations: [] } });
        fake.on('POST', Paths.verificationEmail, {
          status: 202,
          body: { message: 'We sent a verification link to ada@example.com.' },
        });
      },
    });
    const notice = await screen.findByText(
      'Verify your email address to see and accept invitations. We sent a link to ada@example.com.',
    );
    await userEvent.click(
      within(notice.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Send the link again' }),
    );
    expect(await screen.findByText('We sent a verification link to ada@example.com.')).toBeInTheDocument();
    expect(api?.calls).toContain(`POST ${Paths.verificationEmail}`);
  });

  it('shows no verification notice to a verified account', async () => {
    renderPage({
      user: { ...TEST_USER_DTO, emailVerified: true },
      configureApi: (fake) => fake.on('GET', Paths.myInvitations, { body: { invitations: [] } }),
    });
    expect(await screen.findByRole('row', { name: 'Ada Lovelace' })).toBeInTheDocument();
    await waitFor(() => expect(api?.calls).toContain(`GET ${Paths.myInvitations}`));
    expect(screen.queryByText(/Verify your email address/)).not.toBeInTheDocument();
  });
});
