// What an agent gets back from the proxy when its key or its plan stops a request (docs/access.md).
// JSON-RPC error codes in the implementation-defined range, beside the proxy's -32010…-32014.
export const AgentAccessErrorCode = {
  /** 401: the workspace requires a platform key and none was presented. */
  keyRequired: -32030,
  /** 401: the presented key is unknown, revoked or expired. */
  keyRefused: -32031,
  /** 403: the key is valid but not for this server. */
  outOfScope: -32032,
  /** 429: the MCP rate-limit proposal's code, used for the monthly agent-call quota. */
  agentCallLimit: -32023,
} as const;

export const AgentAccessText = {
  keyRequired: 'This workspace requires a platform key: send Authorization: Bearer tsk_… or X-Toolscope-Key',
  unknown: 'Invalid platform key',
  revoked: 'This platform key has been revoked',
  expired: 'This platform key has expired',
  outOfScope: 'This platform key may not call this server',
} as const;

/** SPEC-style text of the quota refusal. */
export function agentCallLimitText(planName: string): string {
  return `Monthly agent call limit reached for the ${planName} plan`;
}

/** `data` of the -32023 error. */
export interface AgentCallLimitData {
  retryAfterMs: number;
  limit: number;
  used: number;
  /** Start of the next calendar month (UTC), ISO. */
  resetsAt: string;
}
