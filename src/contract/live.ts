// Messages of the live stream (GET /api/v1/workspaces/{id}/platform/sse). Each SSE `data:` line
// is one JSON LiveMessage. SPEC §3 fixes the 'notification' shape; the rest are ours (docs/api.md).
export interface LiveMessage<T extends string = string, D = unknown> {
  type: T;
  data: D;
  /** ISO time the server published it. */
  at?: string;
}
