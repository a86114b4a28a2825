import { PROXY_INBOUND_BYTES_PER_SECOND, type PlanId } from '../../contract/plans';
import { UpstreamErrorCode } from './upstreamErrors';

// The bytes of request bodies the proxy reads per workspace (PROXY_INBOUND_BYTES_PER_SECOND, by
// plan), checked before a body is parsed. The recording budgets bound what a flooding workspace
// stores, but not the proxy's time: a 4 MiB batch of notifications is ~300 ms of parsing and
// bookkeeping on the one thread every tenant's calls go through (docs/benchmarks.md "Flood
// isolation"). Past its budget a workspace's bodies are refused at once — a copy of the bytes
// already read, no parse — so a flood costs its sender, not its neighbours.

export type InboundDecision =
  { admitted: true } | { admitted: false; retryAfterSeconds: number; bytesPerSecond: number };

interface Bucket {
  bytes: number;
  refilledMs: number;
}

export class InboundBudget {
  private readonly buckets = new Map<string, Bucket>();
  /** Bodies and bytes refused since start (health, tests). */
  readonly refused = { bodies: 0, bytes: 0 };

  constructor(
    private readonly planOf: (workspaceId: string) => PlanId,
    /** The largest body the proxy takes: a full bucket always holds one. */
    private readonly largestBodyBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `bytes` from the workspace's bucket, or says how long until they would fit. */
  admit(workspaceId: string, bytes: number): InboundDecision {
    const rate = PROXY_INBOUND_BYTES_PER_SECOND[this.planOf(workspaceId)];
    const capacity = Math.max(2 * rate, this.largestBodyBytes);
    const nowMs = this.now();
    let bucket = this.buckets.get(workspaceId);
    if (!bucket) {
      bucket = { bytes: capacity, refilledMs: nowMs };
      this.buckets.set(workspaceId, bucket);
    }
    bucket.bytes = Math.min(capacity, bucket.bytes + ((nowMs - bucket.refilledMs) / 1000) * rate);
    bucket.refilledMs = nowMs;
    if (bytes <= bucket.bytes) {
      bucket.bytes -= bytes;
      return { admitted: true };
    }
    this.refused.bodies++;
    this.refused.bytes += bytes;
    return {
      admitted: false,
      retryAfterSeconds: Math.max(1, Math.ceil((Math.min(bytes, capacity) - bucket.bytes) / rate)),
      bytesPerSecond: rate,
    };
  }
}

/** The answer to a body refused for the budget: HTTP 429 with Retry-After and one JSON-RPC error (the body was not parsed, so no id is known). */
export function inboundRefusal(decision: Extract<InboundDecision, { admitted: false }>): {
  status: 429;
  headers: Record<string, string>;
  body: unknown;
} {
  const perSecond =
    decision.bytesPerSecond >= 1_048_576
      ? `${decision.bytesPerSecond / 1_048_576} MiB/s`
      : `${Math.round(decision.bytesPerSecond / 1024)} KiB/s`;
  return {
    status: 429,
    headers: { 'retry-after': String(decision.retryAfterSeconds) },
    body: {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: UpstreamErrorCode.inboundBudget,
        message: `Too much request data for this workspace (limit ${perSecond}); retry in ${decision.retryAfterSeconds} s`,
        data: { source: 'toolscope', reason: 'inboundBudget', retryAfterMs: decision.retryAfterSeconds * 1000 },
      },
    },
  };
}
