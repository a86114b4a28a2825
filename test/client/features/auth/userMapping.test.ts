import { StorageKeys } from '../../../../src/contract/constants';
import { makeStore } from '../../../../src/client/app/store';
import { selectCurrentUser, signedIn } from '../../../../src/client/features/auth/authSlice';
import { setTemporaryAvatar } from '../../../../src/client/features/auth/temporaryAvatar';
import {
  generatedAvatarUrl,
  initialsOf,
  isExternalAvatarUrl,
  mapUser,
} from '../../../../src/client/features/auth/userMapping';

const camel = {
  id: 'u-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  avatarUrl: 'https://cdn.toolscope.example/a.png',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-02-01T00:00:00.000Z',
  workspaceCount: 3,
};

beforeEach(() => localStorage.clear());

describe('mapUser', () => {
  it('maps camelCase server data', () => {
    expect(mapUser(camel)).toMatchObject({
      id: 'u-1',
      email: 'ada@example.com',
      fullName: 'Ada Lovelace',
      avatarUrl: 'https://cdn.toolscope.example/a.png',
      avatarSource: 'server',
      avatarIsExternal: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
      workspaceCount: 3,
    });
  });

  it('maps snake_case server data the same way', () => {
    const snake = {
      id: 'u-1',
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      avatar_url: 'https://cdn.toolscope.example/a.png',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z',
      workspace_count: 3,
    };
    expect(mapUser(snake)).toEqual(mapUser(camel));
  });

  it('joins first and last name into fullName, whichever is present', () => {
    expect(mapUser({ ...camel, lastName: '' }).fullName).toBe('Ada');
    expect(mapUser({ ...camel, firstName: undefined, lastName: undefined, fullName: 'Grace Hopper' }).fullName).toBe(
      'Grace Hopper',
    );
  });

  it('falls back to createdAt for updatedAt, and to 0 workspaces', () => {
    const user = mapUser({ ...camel, updatedAt: undefined, workspaceCount: undefined });
    expect(user.updatedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(user.workspaceCount).toBe(0);
  });

  it('lets a locally stored temporary avatar win', () => {
    localStorage.setItem(StorageKeys.tempAvatar, 'data:image/png;base64,AAAA');
    expect(mapUser(camel)).toMatchObject({ avatarUrl: 'data:image/png;base64,AAAA', avatarSource: 'temporary' });
  });

  it('generates an avatar locally from id and email when there is none', () => {
    const user = mapUser({ ...camel, avatarUrl: null });
    expect(user.avatarSource).toBe('generated');
    expect(user.avatarUrl).toMatch(/^data:image\/svg\+xml/);
    expect(decodeURIComponent(user.avatarUrl)).toContain('>AL</text>');
    expect(user.avatarIsExternal).toBe(false);
  });

  it('flags avatars from social and identity hosts as external', () => {
    expect(mapUser({ ...camel, avatarUrl: 'https://lh3.googleusercontent.com/a/abc' }).avatarIsExternal).toBe(true);
    expect(mapUser({ ...camel, avatarUrl: 'https://avatars.githubusercontent.com/u/1' }).avatarIsExternal).toBe(true);
  });
});

describe('generated avatars', () => {
  it('are stable for a user and differ between users', () => {
    expect(generatedAvatarUrl('u-1', 'a@x.io')).toBe(generatedAvatarUrl('u-1', 'a@x.io'));
    expect(generatedAvatarUrl('u-1', 'a@x.io')).not.toBe(generatedAvatarUrl('u-2', 'b@x.io'));
  });

  it('use initials of the name, else of the email', () => {
    expect(initialsOf('Ada King Lovelace', 'x@y.z')).toBe('AL');
    expect(initialsOf('', 'grace.hopper@navy.mil')).toBe('GR');
    expect(initialsOf('', '')).toBe('?');
  });

  it('escape nothing dangerous into the SVG', () => {
    const svg = decodeURIComponent(generatedAvatarUrl('u', 'x@y.z', '<script> "Eve"'));
    expect(svg).not.toContain('<script');
  });
});

describe('isExternalAvatarUrl', () => {
  it.each([
    ['https://www.gravatar.com/avatar/123', true],
    ['https://pbs.twimg.com/profile.jpg', true],
    ['https://evilgravatar.com/a.png', false],
    ['/avatars/me.png', false],
    ['data:image/svg+xml,abc', false],
  ])('%s → %s', (url, expected) => {
    expect(isExternalAvatarUrl(url)).toBe(expected);
  });
});

describe('the temporary avatar', () => {
  it('can be chosen and dropped for the signed-in user, the server avatar coming back', async () => {
    const store = makeStore();
    store.dispatch(signedIn(mapUser(camel)));

    await store.dispatch(setTemporaryAvatar('data:image/png;base64,BBBB'));
    expect(selectCurrentUser(store.getState())).toMatchObject({
      avatarUrl: 'data:image/png;base64,BBBB',
      avatarSource: 'temporary',
    });
    expect(localStorage.getItem(StorageKeys.tempAvatar)).toBe('data:image/png;base64,BBBB');

    await store.dispatch(setTemporaryAvatar(null));
    expect(selectCurrentUser(store.getState())).toMatchObject({ avatarUrl: camel.avatarUrl, avatarSource: 'server' });
    expect(localStorage.getItem(StorageKeys.tempAvatar)).toBeNull();
  });
});
