import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';

// The session id the proxy hands an agent (docs/proxy.md "Any instance serves any session"): the
// upstream's Mcp-Session-Id and the recorded session it belongs to, sealed with the instances'
// shared secret — AES-256-GCM, the server's id as additional data — so any instance can forward
// and record a request of the session without asking anyone, and an agent can neither read the
// upstream's id nor forge one (nor use one at another server's proxy URL).
//
// Deterministic: the IV is an HMAC of what is sealed, so one session always gets the same id,
// however many answers carry it and whichever instance sealed it (an SDK client takes the id of
// every answer that has one). That reveals only what an agent knows already: which ids are equal.
//
// Format: "ts1." + base64url(iv 12 | tag 16 | ciphertext of JSON {r, u, t}).

export const SEALED_PREFIX = 'ts1.';

export interface SessionClaims {
  /** The recorded session (its row id), or null when recording was off at its start. */
  recordedSessionId: string | null;
  /** The upstream's own Mcp-Session-Id. */
  upstreamSessionId: string;
  /** When the recorded session started (ms): every instance numbers its messages from it. */
  startedAtMs: number;
}

/** Sealed ids and claims remembered (both ways are deterministic): a session's requests cost a Map lookup, not AES. */
const CACHE_LIMIT = 10_000;

export class SessionSeal {
  private readonly key: Buffer;
  private readonly ivKey: Buffer;
  // By server, then by the upstream's id (sealed) or the token (opened): a key made of both was a
  // string of ~150 characters built on every proxied call.
  private readonly sealedCache = new ServerCache<{ claims: SessionClaims; token: string }>();
  private readonly openedCache = new ServerCache<SessionClaims>();

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'toolscope', 'proxy-session-id/v1', 32));
    this.ivKey = Buffer.from(hkdfSync('sha256', secret, 'toolscope', 'proxy-session-id-iv/v1', 32));
  }

  seal(serverId: string, claims: SessionClaims): string {
    const cached = this.sealedCache.get(serverId, claims.upstreamSessionId);
    if (
      cached &&
      cached.claims.recordedSessionId === claims.recordedSessionId &&
      cached.claims.startedAtMs === claims.startedAtMs
    )
      return cached.token;
    const token = this.sealNow(serverId, claims);
    this.sealedCache.set(serverId, claims.upstreamSessionId, { claims, token });
    return token;
  }

  private sealNow(serverId: string, claims: SessionClaims): string {
    const plain = Buffer.from(
      JSON.stringify({ r: claims.recordedSessionId, u: claims.upstreamSessionId, t: claims.startedAtMs }),
      'utf8',
    );
    const iv = createHmac('sha256', this.ivKey)
      .update(serverId)
      .update('\u0000')
      .update(plain)
      .digest()
      .subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(serverId, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The claims of a sealed id made for this server; null when it was not (forged, altered, another server's). */
  open(serverId: string, token: string): SessionClaims | null {
    const cached = this.openedCache.get(serverId, token);
    if (cached) return cached;
    const claims = this.openNow(serverId, token);
    if (claims) this.openedCache.set(serverId, token, claims);
    return claims;
  }

  private openNow(serverId: string, token: string): SessionClaims | null {
    if (!token.startsWith(SEALED_PREFIX)) return null;
    const raw = Buffer.from(token.slice(SEALED_PREFIX.length), 'base64url');
    if (raw.length < 12 + 16 + 2) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(serverId, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      const { r, u, t } = JSON.parse(plain.toString('utf8')) as { r: unknown; u: unknown; t: unknown };
      if (typeof u !== 'string' || typeof t !== 'number' || (r !== null && typeof r !== 'string')) return null;
      return { recordedSessionId: r, upstreamSessionId: u, startedAtMs: t };
    } catch {
      return null;
    }
  }
}

/** Values by server and key, CACHE_LIMIT in all, cleared whole when full: a miss only costs AES again. */
class ServerCache<T> {
  private readonly byServer = new Map<string, Map<string, T>>();
  private size = 0;

  get(serverId: string, key: string): T | undefined {
    return this.byServer.get(serverId)?.get(key);
  }

  set(serverId: string, key: string, value: T): void {
    if (this.size >= CACHE_LIMIT) {
      this.byServer.clear();
      this.size = 0;
    }
    let values = this.byServer.get(serverId);
    if (!values) this.byServer.set(serverId, (values = new Map<string, T>()));
    if (!values.has(key)) this.size += 1;
    values.set(key, value);
  }
}
