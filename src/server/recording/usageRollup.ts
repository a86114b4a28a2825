import { durationHistogramIndex, isFailedCall, type ToolCallStatus } from '../../contract/sessions';
import type { QueuedToolCall, UsageIncrement } from './rows';

// The per-minute usage rows (workspace × server × tool × minute) that settled calls add up to
// between two writes. A write takes them all; the database adds them to what it holds.
export class UsageRollup {
  private rows = new Map<string, UsageIncrement>();
  /** The last minute bucket built, and its ISO text (calls of one flush mostly share one). */
  private lastMinute = Number.NaN;
  private lastMinuteIso = '';

  add(call: QueuedToolCall): void {
    const duration = call.duration_ms ?? 0;
    const usage = this.row(
      call.workspace_id,
      call.server_id,
      call.tool_name,
      this.minuteBucket(Math.floor(Date.parse(call.ended_at ?? call.started_at) / 60_000)),
    );
    usage.calls++;
    if (isFailedCall(call.status as ToolCallStatus)) usage.errors++;
    usage.duration_sum_ms += duration;
    usage.duration_max_ms = Math.max(usage.duration_max_ms, duration);
    usage.duration_hist[durationHistogramIndex(duration)]++;
    usage.tokens += call.tokens_estimate;
  }

  /** Rows added since the last take (a write is due while there are some). */
  get size(): number {
    return this.rows.size;
  }

  /** Everything added since the last take. */
  take(): UsageIncrement[] {
    const rows = [...this.rows.values()];
    this.rows = new Map();
    return rows;
  }

  /** Rows a write could not store, added back (to what arrived meanwhile). */
  putBack(rows: readonly UsageIncrement[]): void {
    for (const back of rows) {
      const usage = this.row(back.workspace_id, back.server_id, back.tool_name, back.bucket);
      usage.calls += back.calls;
      usage.errors += back.errors;
      usage.duration_sum_ms += back.duration_sum_ms;
      usage.duration_max_ms = Math.max(usage.duration_max_ms, back.duration_max_ms);
      back.duration_hist.forEach((count, i) => (usage.duration_hist[i] += count));
      usage.tokens += back.tokens;
    }
  }

  forgetServer(serverId: string): void {
    for (const [key, usage] of this.rows) if (usage.server_id === serverId) this.rows.delete(key);
  }

  private row(workspaceId: string, serverId: string, toolName: string, bucket: string): UsageIncrement {
    const key = `${workspaceId}|${serverId}|${toolName}|${bucket}`;
    let usage = this.rows.get(key);
    if (!usage) {
      usage = {
        workspace_id: workspaceId,
        server_id: serverId,
        tool_name: toolName,
        bucket,
        calls: 0,
        errors: 0,
        duration_sum_ms: 0,
        duration_max_ms: 0,
        duration_hist: new Array<number>(12).fill(0),
        tokens: 0,
      };
      this.rows.set(key, usage);
    }
    return usage;
  }

  private minuteBucket(minute: number): string {
    if (minute !== this.lastMinute) {
      this.lastMinute = minute;
      this.lastMinuteIso = new Date(minute * 60_000).toISOString();
    }
    return this.lastMinuteIso;
  }
}
