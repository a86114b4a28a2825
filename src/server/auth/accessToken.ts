import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../contract/constants';
import type { AccessTokenClaims } from '../../contract/auth';

// Access tokens are compact JWTs signed with HS256 and nothing else: the header's alg must be
// exactly HS256 and typ JWT, and the claims' typ must be 'access' — so `alg: none`, another
// algorithm, a forged signature, an expired token or a refresh token all fail the same way.
const HEADER = { alg: 'HS256', typ: 'JWT' } as const;
const encodedHeader = b64url(JSON.stringify(HEADER));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function b64url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

function sign(input: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

export function signAccessToken(
  userId: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  sid?: string,
): string {
  const claims: AccessTokenClaims = { sub: userId, typ: 'access', iat: nowSeconds, exp: nowSeconds + ttlSeconds, jti: randomUUID(), ...(sid ? { sid } : {}) };
  const body = `${encodedHeader}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${sign(body, secret).toString('base64url')}`;
}

/** Returns the claims of a valid access token, or null for anything else. Never throws. */
export function verifyAccessToken(token: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): AccessTokenClaims | null {
  if (typeof token !== 'string' || token.length > 4096) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (header.alg !== HEADER.alg || header.typ !== HEADER.typ) return null;
    const expected = sign(`${h}.${p}`, secret);
    const given = Buffer.from(s, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as AccessTokenClaims;
    if (claims.typ !== 'access' || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return null;
    // Ids go into SQL as uuids: a token (even a correctly signed one) whose ids are not uuids is
    // refused here as 401 rather than failing a query as a 500.
    if (!UUID.test(claims.sub) || (claims.sid !== undefined && (typeof claims.sid !== 'string' || !UUID.test(claims.sid)))) return null;
    if (claims.exp <= nowSeconds) return null;
    return claims;
  } catch {
    return null;
  }
}
