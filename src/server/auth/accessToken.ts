import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../contract/constants';
import type { AccessTokenClaims } from '../../contract/auth';

// Access tokens are compact JWTs signed with HS256 and nothing else: the header's alg must be
// exactly HS256 and typ JWT, and the claims' typ must be 'access' — so `alg: none`, another
// algorithm, a forged signature, an expired token or a refresh token all fail the same way.
const HEADER = { alg: 'HS256', typ: 'JWT' } as const;
const encodedHeader = b64url(JSON.stringify(HEADER));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Clocks of several instances may differ a little; an iat this far ahead is still believed. */
const CLOCK_SKEW_SECONDS = 60;

function b64url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

function sign(input: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

export function signAccessToken(
  userId: string,
  secret: string,
  sid: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  jti: string = randomUUID(),
): string {
  const claims: AccessTokenClaims = {
    sub: userId,
    typ: 'access',
    iat: nowSeconds,
    exp: nowSeconds + ttlSeconds,
    jti,
    sid,
  };
  const body = `${encodedHeader}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${sign(body, secret).toString('base64url')}`;
}

/**
 * Decodes one base64url part, or undefined unless it is the canonical spelling of its bytes:
 * Node's decoder skips characters it does not know and ignores trailing bits, so `abc!d` and
 * `abd` would otherwise both pass as `abc` — several spellings of one signed token.
 */
function decodeCanonical(part: string): Buffer | undefined {
  if (!BASE64URL.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

/**
 * Returns the claims of a valid access token, or null for anything else. Never throws.
 * Besides the signature: the token must name its sign-in (`sid`, checked against the database by
 * `authenticate`), and must not live longer than an access token may — a token signed with a
 * leaked key and a year's `exp` is refused even before its sign-in is looked up.
 */
export function verifyAccessToken(
  token: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): AccessTokenClaims | null {
  if (typeof token !== 'string' || token.length > 4096) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts;
  const headerBytes = decodeCanonical(h);
  const payloadBytes = decodeCanonical(p);
  const given = decodeCanonical(s);
  if (!headerBytes || !payloadBytes || !given) return null;
  try {
    const header = JSON.parse(headerBytes.toString('utf8')) as Record<string, unknown>;
    if (header.alg !== HEADER.alg || header.typ !== HEADER.typ) return null;
    const expected = sign(`${h}.${p}`, secret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    // Checked field by field below: a correctly signed token is still only what its JSON says.
    const claims = JSON.parse(payloadBytes.toString('utf8')) as { [K in keyof AccessTokenClaims]?: unknown };
    if (claims.typ !== 'access' || typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return null;
    if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number') return null;
    // Ids go into SQL as uuids: a token (even a correctly signed one) whose ids are not uuids is
    // refused here as 401 rather than failing a query as a 500.
    if (!UUID.test(claims.sub) || !UUID.test(claims.sid)) return null;
    if (claims.exp <= nowSeconds) return null;
    if (claims.exp - claims.iat > ACCESS_TOKEN_TTL_SECONDS) return null;
    if (claims.exp > nowSeconds + ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS) return null;
    return claims as AccessTokenClaims;
  } catch {
    return null;
  }
}
