import { REFRESH_BEFORE_EXPIRY_MS, StorageKeys } from '../../contract/constants';

// Tokens live in localStorage under the two keys SPEC §4 names, and nowhere else (not in Redux,
// not in the persisted cache), so every tab sees the same pair and the storage event works.

function readKey(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be unavailable (privacy modes, quota); treat it as empty.
    return null;
  }
}

function writeKey(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing better to do than keep the in-memory session running.
  }
}

export function getAccessToken(): string | null {
  return readKey(StorageKeys.accessToken) || null;
}

export function getRefreshToken(): string | null {
  return readKey(StorageKeys.refreshToken) || null;
}

/** Stores a new access token; the refresh token is replaced only when one is given (rotation). */
export function setTokens({ accessToken, refreshToken }: { accessToken: string; refreshToken?: string }): void {
  writeKey(StorageKeys.accessToken, accessToken);
  if (refreshToken) writeKey(StorageKeys.refreshToken, refreshToken);
}

export function clearTokens(): void {
  writeKey(StorageKeys.accessToken, null);
  writeKey(StorageKeys.refreshToken, null);
}

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The `exp` claim (seconds since the epoch) of a JWT, or null when it has none or is not a JWT. */
export function decodeExp(token: string | null | undefined): number | null {
  if (!token) return null;
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    if (claims && typeof claims === 'object' && 'exp' in claims) {
      const exp = claims.exp;
      return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
    }
    return null;
  } catch {
    return null;
  }
}

/** Expiry of a token in epoch milliseconds, or null when unknown. */
export function expiresAtMs(token: string | null | undefined): number | null {
  const exp = decodeExp(token);
  return exp === null ? null : exp * 1000;
}

export function isExpired(token: string | null | undefined, now = Date.now()): boolean {
  const expiresAt = expiresAtMs(token);
  return expiresAt !== null && expiresAt <= now;
}

/**
 * True when a request should refresh first: the token is expired or expires within 5 minutes.
 * A token without an `exp` claim is left to the server to judge (a 401 still triggers a refresh).
 */
export function needsRefreshBeforeUse(token: string | null | undefined, now = Date.now()): boolean {
  const expiresAt = expiresAtMs(token);
  return expiresAt !== null && expiresAt - now <= REFRESH_BEFORE_EXPIRY_MS;
}
