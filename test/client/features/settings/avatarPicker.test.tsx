import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import {
  AVATAR_BACKGROUNDS,
  AVATAR_STYLE_NAMES,
  drawAvatarChoices,
} from '../../../../src/client/features/settings/avatarChoices';
import { ProfileTab } from '../../../../src/client/features/settings/components/ProfileTab';
import { selectCurrentUser } from '../../../../src/client/features/auth/authSlice';
import { renderShellApp, TEST_USER_DTO } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(120_000);

let api: FakeApi | undefined;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => api?.restore());

/** A seeded generator, so a draw is reproducible. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

describe('avatar choices', () => {
  it('draws 6 different style × colour pairs from 8 styles and 5 colours, as local data URIs', () => {
    expect(AVATAR_STYLE_NAMES).toHaveLength(8);
    expect(AVATAR_BACKGROUNDS).toHaveLength(5);
    const choices = drawAvatarChoices(seeded(1));
    expect(choices).toHaveLength(6);
    expect(new Set(choices.map((c) => `${c.style}/${c.backgroundColor}`)).size).toBe(6);
    for (const choice of choices) {
      expect(AVATAR_STYLE_NAMES).toContain(choice.style);
      expect(AVATAR_BACKGROUNDS).toContain(choice.backgroundColor);
      expect(choice.url.startsWith('data:image/svg+xml')).toBe(true);
      expect(decodeURIComponent(choice.url)).toContain(choice.backgroundColor);
    }
    // Over many draws every style and every colour turns up.
    const seen = new Set<string>();
    const random = seeded(7);
    for (let i = 0; i < 20; i += 1) for (const c of drawAvatarChoices(random)) seen.add(c.style).add(c.backgroundColor);
    for (const name of [...AVATAR_STYLE_NAMES, ...AVATAR_BACKGROUNDS]) expect(seen).toContain(name);
  });
});

describe('Profile tab', () => {
  function renderProfile(configure?: (fake: FakeApi) => void) {
    const context = renderShellApp(<ProfileTab />, {
      signedIn: true,
      path: '/settings?tab=profile',
      configureApi: configure,
    });
    api = context.api;
    return context;
  }

  it('offers 6 avatars as a radio group, shuffles, and saves the chosen one to the profile', async () => {
    let saved: { avatarUrl?: string } | undefined;
    const { store } = renderProfile((fake) =>
      fake.on('PUT', Paths.me, ({ body }) => {
        saved = body as { avatarUrl: string };
        return { body: { ...TEST_USER_DTO, avatarUrl: saved.avatarUrl } };
      }),
    );
    const group = await screen.findByRole('radiogroup', { name: 'Choose an avatar' }, { timeout: 60_000 });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(6);
    for (const radio of radios) expect(radio.getAttribute('aria-label')).toMatch(/avatar/);
    const before = radios.map((r) => (r.getAttribute('aria-label') ?? '') + (r as HTMLInputElement).value);

    await userEvent.click(screen.getByRole('button', { name: 'Shuffle' }));
    const after = within(group)
      .getAllByRole('radio')
      .map((r) => (r.getAttribute('aria-label') ?? '') + (r as HTMLInputElement).value);
    expect(after).toHaveLength(6);
    expect(after).not.toEqual(before);

    expect(screen.getByRole('button', { name: 'Save avatar' })).toBeDisabled();
    const third = within(group).getAllByRole('radio')[2];
    await userEvent.click(third);
    expect(third).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save avatar' }));
    await screen.findByText('Avatar updated');
    expect(saved?.avatarUrl).toMatch(/^data:image\/svg\+xml/);
    // The header reads the store's user: it has the new avatar, from the server now.
    const user = selectCurrentUser(store.getState());
    expect(user?.avatarUrl).toBe(saved?.avatarUrl);
    expect(user?.avatarSource).toBe('server');
    expect(localStorage.getItem(StorageKeys.tempAvatar)).toBeNull();
  });

  it('keeps the pick as the local temporary avatar, which wins, when the server refuses it', async () => {
    const { store } = renderProfile((fake) =>
      fake.on('PUT', Paths.me, {
        status: 400,
        body: { message: 'avatarUrl: The avatar image is too large', code: 'validation_failed' },
      }),
    );
    const radio = within(
      await screen.findByRole('radiogroup', { name: 'Choose an avatar' }, { timeout: 60_000 }),
    ).getAllByRole('radio')[0];
    await userEvent.click(radio);
    await userEvent.click(screen.getByRole('button', { name: 'Save avatar' }));
    await screen.findByText('Avatar kept on this device only');
    const stored = localStorage.getItem(StorageKeys.tempAvatar);
    expect(stored).toMatch(/^data:image\/svg\+xml/);
    expect(selectCurrentUser(store.getState())).toMatchObject({ avatarUrl: stored, avatarSource: 'temporary' });
  });

  it('saves the name to the server and the signed-in user changes at once', async () => {
    let sent: unknown;
    const { store } = renderProfile((fake) =>
      fake.on('PUT', Paths.me, ({ body }) => {
        sent = body;
        return { body: { ...TEST_USER_DTO, firstName: 'Augusta', lastName: 'King', fullName: 'Augusta King' } };
      }),
    );
    const first = screen.getByRole('textbox', { name: 'First name' });
    await userEvent.clear(first);
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(sent).toBeUndefined();
    await userEvent.type(first, 'Augusta');
    const last = screen.getByRole('textbox', { name: 'Last name' });
    await userEvent.clear(last);
    await userEvent.type(last, 'King');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await waitFor(() => expect(selectCurrentUser(store.getState())?.fullName).toBe('Augusta King'));
    expect(sent).toEqual({ firstName: 'Augusta', lastName: 'King' });
  });
});
