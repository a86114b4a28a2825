import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// A browser that signed in to an account before carries a device cookie for that account (OWASP's
// "device cookies"): `toolscope_device_<account tag>=<nonce>.<HMAC of email and nonce>`. It is no
// credential (the password is still needed); it exempts the account-wide backoff
// (accountBackoff.ts) and gives the device a lock-out bucket of its own instead of its address's,
// so neither an attack from elsewhere nor a shared proxy address locks the owner out. A copied
// cookie gains its holder five guesses per lock-out period, like one more address.
const COOKIE_PREFIX = 'toolscope_device_';
const NONCE = /^[A-Za-z0-9_-]{22}$/;
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

function cookieName(email: string): string {
  return COOKIE_PREFIX + createHash('sha256').update(email).digest('base64url').slice(0, 16);
}

function mac(secret: string, email: string, nonce: string): string {
  return createHmac('sha256', secret).update(`device\n${email}\n${nonce}`).digest('base64url');
}

/** The device's nonce when the request carries a genuine device cookie for this email. */
export function recognisedDevice(secret: string, email: string, cookieHeader: string | undefined): string | undefined {
  const name = cookieName(email);
  for (const part of (cookieHeader ?? '').split(';')) {
    const [key, value] = part.trim().split('=', 2);
    if (key !== name || !value) continue;
    const [nonce, signature] = value.split('.', 2);
    if (!nonce || !signature || !NONCE.test(nonce)) continue;
    const expected = Buffer.from(mac(secret, email, nonce));
    const given = Buffer.from(signature);
    if (expected.length === given.length && timingSafeEqual(expected, given)) return nonce;
  }
  return undefined;
}

/** The Set-Cookie value after a successful sign-in (the same nonce again when the device had one). */
export function deviceCookie(
  secret: string,
  email: string,
  options: { nonce?: string; path: string; secure: boolean },
): string {
  const nonce = options.nonce ?? randomBytes(16).toString('base64url');
  const attributes = [
    `${cookieName(email)}=${nonce}.${mac(secret, email, nonce)}`,
    `Path=${options.path}`,
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (options.secure) attributes.push('Secure');
  return attributes.join('; ');
}
