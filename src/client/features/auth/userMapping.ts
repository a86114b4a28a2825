import { StorageKeys } from '../../../contract/constants';

/** The signed-in user as the client shows it (SPEC §3). */
export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  /** Always displayable: the temporary avatar, the server's avatar, or a generated one. */
  avatarUrl: string;
  avatarSource: 'temporary' | 'server' | 'generated';
  /** The server's own avatar, kept so dropping the temporary one can restore it. */
  serverAvatarUrl: string | null;
  /** Served by a social or identity host; shown without sending our page as referrer. */
  avatarIsExternal: boolean;
  createdAt: string;
  updatedAt: string;
  workspaceCount: number;
  /** The address was proved by the mailed link; invitations need it. Absent from older servers: true. */
  emailVerified: boolean;
}

// Hosts of social sign-in and avatar services: their images are third-party content.
const EXTERNAL_AVATAR_HOSTS = [
  'googleusercontent.com',
  'githubusercontent.com',
  'gravatar.com',
  'gitlab.com',
  'graph.facebook.com',
  'fbcdn.net',
  'licdn.com',
  'twimg.com',
  'graph.microsoft.com',
  'discordapp.com',
  'slack-edge.com',
  'dicebear.com',
  'ui-avatars.com',
];

export function isExternalAvatarUrl(url: string): boolean {
  try {
    const { hostname } = new URL(url);
    return EXTERNAL_AVATAR_HOSTS.some((host) => hostname === host || hostname.endsWith(`.${host}`));
  } catch {
    return false;
  }
}

function hashString(text: string): number {
  // FNV-1a: tiny, stable across runs, spreads similar ids to different hues.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function initialsOf(fullName: string, email: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return (words[0][0] + words[words.length - 1][0]).toUpperCase();
  if (words.length === 1) return words[0].slice(0, 2).toUpperCase();
  const local = email.split('@')[0] ?? '';
  return (local.replace(/[^a-z0-9]/gi, '').slice(0, 2) || '?').toUpperCase();
}

/** A deterministic SVG avatar (initials on a hue derived from id and email), made locally. */
export function generatedAvatarUrl(id: string, email: string, fullName = ''): string {
  const hue = hashString(`${id}:${email.toLowerCase()}`) % 360;
  const initials = initialsOf(fullName, email).replace(/[^A-Z0-9?]/g, '');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" fill="hsl(${hue}, 55%, 38%)"/>` +
    `<text x="50%" y="50%" dy=".35em" text-anchor="middle" fill="#fff" ` +
    `font-family="system-ui, sans-serif" font-size="26" font-weight="600">${initials}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export function readTemporaryAvatar(): string | null {
  try {
    return window.localStorage.getItem(StorageKeys.tempAvatar) || null;
  } catch {
    return null;
  }
}

function pick(raw: Record<string, unknown>, camel: string, snake: string): unknown {
  return raw[camel] ?? raw[snake];
}

/** A profile field as text: strings as they are, numbers and booleans written out, anything else blank. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

type AvatarFields = Pick<User, 'avatarUrl' | 'avatarSource' | 'avatarIsExternal' | 'serverAvatarUrl'>;

/** The temporary avatar, else the server's, else one generated from id and email. */
function chooseAvatar(
  user: Pick<User, 'id' | 'email' | 'fullName' | 'serverAvatarUrl'>,
  temporaryAvatar: string | null | undefined,
): AvatarFields {
  const { serverAvatarUrl } = user;
  if (temporaryAvatar) {
    return {
      avatarUrl: temporaryAvatar,
      avatarSource: 'temporary',
      avatarIsExternal: isExternalAvatarUrl(temporaryAvatar),
      serverAvatarUrl,
    };
  }
  if (serverAvatarUrl) {
    return {
      avatarUrl: serverAvatarUrl,
      avatarSource: 'server',
      avatarIsExternal: isExternalAvatarUrl(serverAvatarUrl),
      serverAvatarUrl,
    };
  }
  return {
    avatarUrl: generatedAvatarUrl(user.id, user.email, user.fullName),
    avatarSource: 'generated',
    avatarIsExternal: false,
    serverAvatarUrl,
  };
}

/** The same user with a temporary avatar chosen (a URL) or dropped (null). */
export function withTemporaryAvatar(user: User, temporaryAvatar: string | null): User {
  return { ...user, ...chooseAvatar(user, temporaryAvatar) };
}

/** Saves (or removes) the temporary avatar under its local storage key. */
export function saveTemporaryAvatar(url: string | null): void {
  try {
    if (url) window.localStorage.setItem(StorageKeys.tempAvatar, url);
    else window.localStorage.removeItem(StorageKeys.tempAvatar);
  } catch {
    // Shown for this visit only.
  }
}

/**
 * Maps the server's user (snake_case or camelCase) to a User. The temporary avatar (a local
 * choice not yet saved) wins over the server's; without either a generated one is used.
 */
export function mapUser(
  raw: unknown,
  { temporaryAvatar = readTemporaryAvatar() }: { temporaryAvatar?: string | null } = {},
): User {
  const source = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const id = text(source.id);
  const email = text(source.email);
  const firstName = text(pick(source, 'firstName', 'first_name')).trim();
  const lastName = text(pick(source, 'lastName', 'last_name')).trim();
  const fullName =
    [firstName, lastName].filter(Boolean).join(' ') || text(pick(source, 'fullName', 'full_name')).trim();
  const createdAt = text(pick(source, 'createdAt', 'created_at'));
  const updatedAt = text(pick(source, 'updatedAt', 'updated_at')) || createdAt;
  const count = Number(pick(source, 'workspaceCount', 'workspace_count'));
  const serverAvatar = text(pick(source, 'avatarUrl', 'avatar_url')).trim();

  const avatar = chooseAvatar({ id, email, fullName, serverAvatarUrl: serverAvatar || null }, temporaryAvatar);

  return {
    id,
    email,
    firstName,
    lastName,
    fullName,
    ...avatar,
    createdAt,
    updatedAt,
    workspaceCount: Number.isFinite(count) && count >= 0 ? count : 0,
    emailVerified: pick(source, 'emailVerified', 'email_verified') !== false,
  };
}
