import helmet, { type HelmetOptions } from 'helmet';
import type { ServerResponse } from 'node:http';
import type { Config } from '../config';

// Security headers on every answer of the SPA and the API (helmet), docs/security.md:
// - scripts only from our own origin, never inline (the built index.html loads one module file);
// - styles from our origin plus inline: MUI's emotion injects <style> elements at run time and the
//   page sets a style attribute; a nonce would need the static index.html templated per request.
//   Inline CSS cannot run script; what it could do (CSS-based exfiltration) needs an injection
//   point React's escaping does not give;
// - images also as data: (generated avatars) and from https: (avatars of identity providers);
// - connect-src 'self': the API and the live stream are same-origin;
// - no framing at all (frame-ancestors 'none' and X-Frame-Options DENY), no plugins, no <base>;
// - nosniff, and no Referer: proxy URLs carry their key in the path.
// HSTS only when the public URL is https (a plain-http install on a LAN must keep working).
export function securityHeaderOptions(config: Pick<Config, 'publicUrl'>): HelmetOptions {
  const https = config.publicUrl?.startsWith('https://') ?? false;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        workerSrc: ["'self'", 'blob:'],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    // External avatars must still load: no cross-origin isolation.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  };
}

/**
 * The headers helmet sets, computed once: with no nonce and no directive that depends on the
 * request they are the same for every answer, and helmet's middleware (or its Fastify plugin, two
 * hooks per request, one async) rebuilt the CSP string for each. Read off helmet itself, so its
 * defaults stay the source of truth.
 */
export function securityHeaders(config: Pick<Config, 'publicUrl'>): ReadonlyArray<readonly [string, string]> {
  const headers: [string, string][] = [];
  const collector = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name.toLowerCase(), String(value)]);
    },
    removeHeader() {},
  } as unknown as ServerResponse;
  let failure: unknown;
  helmet(securityHeaderOptions(config))({} as never, collector, (error?: unknown) => {
    failure = error;
  });
  // helmet's middleware calls back synchronously; an error means options it refuses (a bug here).
  if (failure) throw failure instanceof Error ? failure : new Error('helmet refused the security header options');
  return headers;
}

/** The proxy's URLs: an agent's JSON-RPC and event streams are no page for a browser to render. */
export function carriesSecurityHeaders(url: string): boolean {
  return !(url.startsWith('/mcp/') || url === '/mcp' || url.startsWith('/mcp?'));
}
