import type { FastifyRequest } from 'fastify';

// The cookie that binds a browser redirect flow (a provider sign-in, an upstream OAuth connection)
// to the browser that started it: the state goes out in the URL and comes back in the callback,
// and must equal the cookie's, so a callback started in another browser (login CSRF, a planted
// authorization code) is refused. Scoped to the callback path, HttpOnly, and SameSite=Lax: the
// authorization server's redirect back is a cross-site top-level navigation, which Strict would
// strip. Ten minutes, like the attempt it names.

export function stateCookie(request: FastifyRequest, name: string, path: string, state: string, maxAgeSeconds = 600) {
  const attributes = [`${name}=${state}`, `Path=${path}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (request.protocol === 'https') attributes.push('Secure');
  return attributes.join('; ');
}

export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** A same-site path only, so a flow cannot send the user to another site. */
export function safeReturnPath(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
    ? value
    : fallback;
}
