import { createHash } from 'node:crypto';
import type { QueuedSession, QueuedToolCall } from './rows';
import { addCounts, finish, rowOf, type Building, type TrafficKey } from './trafficGrains';
import { argumentTokens, DefinitionTokenCache, errorClass, resultTokens } from './tokenCounter';
import { CallTokenCounts } from './callTokenCounts';
import { TokenizerThread } from './tokenizerThread';

// The analytics rollup of the traffic between two writes (docs/analytics.md "Rollups"). What the
// proxy's path hands over costs it a push: settled calls, sessions seen, tools/list answers. The
// work — tokenizing, classifying errors, sketching latencies, summing per workspace × server ×
// tool × client × platform key × minute — runs in `take`, inside the recorder's batch work, right
// before the batch is written. The write stores these minute increments as they are
// (traffic_pending); the hour, day and week rows are summed from them later, in bulk (trafficFold.ts).
// Rows a write could not store come back through `putBack`.
// Tokenizing, the bulk of that work, starts earlier on the tokenizer thread (tokenizerThread.ts):
// a settled call's texts are posted when it is added, and `take` finds its counts set (a call
// whose counts are not back yet is counted here, as before: the batch never goes without them).

export type { ToolListRow, TrafficBatch, TrafficIncrement } from './trafficRows';
import type { ToolListRow, TrafficBatch, TrafficIncrement } from './trafficRows';

/** Rows holding no call: sessions started and definitions received. */
export const NO_TOOL = '';
/** A server's unchanged list is written again at most this often (it dates "listed in the range"). */
const LIST_REFRESH_MS = 10 * 60_000;

interface ReceivedList {
  session: QueuedSession;
  tools: unknown[];
  at: string;
}

export class TrafficRollup {
  private settled: QueuedToolCall[] = [];
  private lists: ReceivedList[] = [];
  private newSessions: QueuedSession[] = [];
  /** Minute rows a write could not store, added to the next take. */
  private carried: TrafficIncrement[] = [];
  /** Live session rows by id (a call names its session; the client name and token sums live there). */
  private readonly sessions = new Map<string, QueuedSession>();
  private readonly lastListWritten = new Map<string, { hash: string; atMs: number }>();
  readonly definitions = new DefinitionTokenCache();
  private readonly tokenCounts: CallTokenCounts;
  /** Calls settled in the database (addStoredSettle), to their session's client, until the next take. */
  private storedClients = new Map<QueuedToolCall, string>();

  /** `tokenizer`: null counts on this thread, in `take` (as the benchmarks' reference does). */
  constructor(tokenizer: TokenizerThread | null = TokenizerThread.shared()) {
    this.tokenCounts = new CallTokenCounts(tokenizer);
  }

  /** A session's row was queued: remembered, and counted as started once. */
  noteSession(session: QueuedSession): void {
    if (this.sessions.has(session.row.id)) return;
    this.sessions.set(session.row.id, session);
    if (!session.adopted) this.newSessions.push(session);
  }

  /** A session's end was announced: nothing of it is to come. */
  forgetSession(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  add(call: QueuedToolCall): void {
    this.settled.push(call);
    this.tokenCounts.add(call);
  }

  /**
   * A call settled in the database by another path than its row's write (a session this recorder
   * may not hold): counted with its session's client as the database holds it.
   */
  addStoredSettle(call: QueuedToolCall, clientName: string | null): void {
    this.storedClients.set(call, clientName ?? '');
    this.add(call);
  }

  /** Waits (at most `maxWaitMs`) for the token counts of the calls added so far: a write calls it before `take`. */
  ready(maxWaitMs = 250): Promise<void> {
    return this.tokenCounts.ready(maxWaitMs);
  }

  /** A tools/list answer reached the agent in this session: its definitions are in the model's context. */
  noteToolsListed(session: QueuedSession, result: unknown, at: string): void {
    const tools = (result as { tools?: unknown } | null)?.tools;
    if (Array.isArray(tools)) this.lists.push({ session, tools, at });
  }

  get hasWork(): boolean {
    return this.settled.length > 0 || this.lists.length > 0 || this.newSessions.length > 0 || this.carried.length > 0;
  }

  /**
   * Measures everything handed over since the last take and returns the increments. Sets each
   * call's token counts and error class (its row is written in the same batch) and adds the
   * tokens to its session's row; returns the sessions whose sums changed.
   */
  take(): { traffic: TrafficBatch | null; touchedSessions: QueuedSession[] } {
    if (!this.hasWork) return { traffic: null, touchedSessions: [] };
    const minutes = new Map<string, Building>();
    const touched = new Set<QueuedSession>();
    for (const back of this.carried) {
      const row = this.row(minutes, back, back.bucket);
      addCounts(row, back);
      row.sketch.addArrays(back.latency_zeros, back.latency_bins, back.latency_counts);
    }
    this.carried = [];

    for (const { row: session } of this.newSessions) {
      this.row(minutes, keyOf(session, NO_TOOL), minuteOf(session.started_at)).sessions++;
    }
    this.newSessions = [];

    for (const call of this.settled) {
      const args = (call.argument_tokens ??= argumentTokens(call));
      const results = (call.result_tokens ??= resultTokens(call));
      const failure = (call.error_class ??= errorClass(call));
      const queued = this.sessions.get(call.session_id);
      const session = queued?.row;
      const row = this.row(
        minutes,
        {
          workspace_id: call.workspace_id,
          server_id: call.server_id,
          tool_name: call.tool_name,
          client_name: session?.client_name ?? this.storedClients.get(call) ?? '',
          platform_key_id: call.platform_key_id,
        },
        minuteOf(call.ended_at ?? call.started_at),
      );
      const duration = call.duration_ms ?? 0;
      row.calls++;
      if (failure === 'protocol') row.protocol_errors++;
      else if (failure === 'server') row.server_errors++;
      else if (failure === 'tool') row.tool_errors++;
      row.argument_tokens += args;
      row.result_tokens += results;
      row.duration_sum_ms += duration;
      row.duration_max_ms = Math.max(row.duration_max_ms, duration);
      const at = call.ended_at ?? call.started_at;
      if (row.last_call_at === null || at > row.last_call_at) row.last_call_at = at;
      // A call without an answer has no duration to speak of: it counts, its latency does not.
      if (call.duration_ms !== null) row.sketch.add(duration);
      if (queued) {
        queued.row.argument_tokens += args;
        queued.row.result_tokens += results;
        touched.add(queued);
      }
    }
    this.settled = [];
    this.storedClients = new Map();

    const toolLists = new Map<string, ToolListRow>();
    for (const list of this.lists) {
      const measured = list.tools.map((tool) => ({ name: toolName(tool), ...this.definitions.measure(tool) }));
      const definitionTokens = measured.reduce((sum, tool) => sum + tool.tokens, 0);
      const session = list.session.row;
      this.row(minutes, keyOf(session, NO_TOOL), minuteOf(list.at)).definition_tokens += definitionTokens;
      session.definition_tokens += definitionTokens;
      touched.add(list.session);
      const listHash = createHash('sha1')
        .update(measured.map((tool) => tool.hash).join(','))
        .digest('base64url');
      const last = this.lastListWritten.get(session.server_id);
      const atMs = Date.parse(list.at);
      if (last && last.hash === listHash && atMs - last.atMs < LIST_REFRESH_MS) continue;
      this.lastListWritten.set(session.server_id, { hash: listHash, atMs });
      toolLists.set(session.server_id, {
        server_id: session.server_id,
        workspace_id: session.workspace_id,
        list_hash: listHash,
        definition_tokens: definitionTokens,
        tools: measured.map((tool) => ({ name: tool.name, definitionTokens: tool.tokens })),
        listed_at: list.at,
      });
    }
    this.lists = [];

    return {
      traffic: { minutes: [...minutes.values()].map(finish), toolLists: [...toolLists.values()] },
      touchedSessions: [...touched],
    };
  }

  /** Minute rows a write could not store: added to the next take's. */
  putBack(traffic: TrafficBatch | null, keep: (serverId: string) => boolean): void {
    if (!traffic) return;
    this.carried.push(...traffic.minutes.filter((row) => keep(row.server_id)));
    // A list not written is measured again only when the server answers one again: forget that it was.
    for (const list of traffic.toolLists) this.lastListWritten.delete(list.server_id);
  }

  forgetServer(serverId: string): void {
    this.settled = this.settled.filter((call) => call.server_id !== serverId);
    this.lists = this.lists.filter((list) => list.session.row.server_id !== serverId);
    this.newSessions = this.newSessions.filter((session) => session.row.server_id !== serverId);
    this.carried = this.carried.filter((row) => row.server_id !== serverId);
    for (const [id, session] of this.sessions) if (session.row.server_id === serverId) this.sessions.delete(id);
    this.lastListWritten.delete(serverId);
  }

  /** Drops everything waiting (shutdown against a database that never came back). */
  clear(): void {
    this.settled = [];
    this.tokenCounts.clear();
    this.lists = [];
    this.newSessions = [];
    this.carried = [];
  }

  private row(rows: Map<string, Building>, key: TrafficKey, bucket: string): Building {
    return rowOf(rows, key, bucket);
  }
}

/** A session's own rows (sessions started, definitions received) belong to its client and to the key it presented. */
function keyOf(session: QueuedSession['row'], tool: string) {
  return {
    workspace_id: session.workspace_id,
    server_id: session.server_id,
    tool_name: tool,
    client_name: session.client_name ?? '',
    platform_key_id: session.platform_key_id ?? null,
  };
}

function toolName(tool: unknown): string {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name.slice(0, 200) : '(unnamed)';
}

const minuteCache = { ms: Number.NaN, iso: '' };
/** The minute an ISO time falls in, as ISO (calls of one write mostly share it). */
function minuteOf(iso: string): string {
  const ms = Math.floor(Date.parse(iso) / 60_000) * 60_000;
  if (ms !== minuteCache.ms) {
    minuteCache.ms = ms;
    minuteCache.iso = new Date(ms).toISOString();
  }
  return minuteCache.iso;
}
