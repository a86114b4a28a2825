// What Toolscope says about a call it made to a destination a user chose (a webhook, an OTLP
// endpoint, a tool server's health check): the status class and a fixed reason, never the
// destination's own words. A member who may point Toolscope anywhere would otherwise read internal
// services through it ("HTTP 403: admin-password=…"), and tell closed ports from open ones by the
// error text. Toolscope's own refusals (private network, own address, too large) are its own words
// and stay as they are. docs/security.md, "Outbound answers".

export const NO_HTTP_ANSWER = 'No HTTP answer from the destination (unreachable, refused, closed or timed out)';

const CLASS_REASONS: Record<number, string> = {
  1: 'an unexpected informational answer',
  2: 'accepted',
  3: 'a redirect, which is not followed',
  4: 'refused by the destination',
  5: 'the destination failed',
};

/** `HTTP 4xx: refused by the destination` — the class of `status` and a reason of our own. */
export function statusClassText(status: number): string {
  const digit = Math.floor(status / 100);
  return `HTTP ${digit}xx: ${CLASS_REASONS[digit] ?? 'an unexpected status'}`;
}

/** Codes of the errors the outbound client raises with texts of Toolscope's own (net/outboundClient.ts). */
const OWN_REFUSALS = new Set(['outbound_blocked', 'response_too_large']);

/** Toolscope's own refusal anywhere in the error's cause chain, if there is one. */
export function ownRefusal(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && OWN_REFUSALS.has(code)) return current.message;
    current = current.cause;
  }
  return undefined;
}

/** A failed call without an HTTP answer: Toolscope's own refusal, or the one fixed text. */
export function outboundFailureText(error: unknown): string {
  return ownRefusal(error) ?? NO_HTTP_ANSWER;
}
