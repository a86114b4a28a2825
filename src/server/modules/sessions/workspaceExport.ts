import type { Queryable } from '../../db/database';
import type { AuditEventDto } from '../../../contract/audit';
import {
  EXPORT_FORMAT_VERSION,
  type ExportCounts,
  type ExportLine,
  type ExportPart,
} from '../../../contract/dataExport';
import { toSessionDto, type SessionRow } from '../../data/sessions/mappers';
import { SESSION_COLUMNS } from './sessionList';
import { replaySession } from './sessionStore';

// The lines of a workspace export (contract/dataExport.ts), produced page by page as the stream
// is read: memory holds one page of sessions or messages, whatever the size of the export.

const SESSION_PAGE = 100;
const MESSAGE_PAGE = 1_000;
const AUDIT_PAGE = 500;

export interface ExportRange {
  workspaceId: string;
  from?: string;
  to?: string;
  parts: ExportPart[];
}

/** Sessions started in the range (the count the header line announces). */
export async function countExportSessions(db: Queryable, range: ExportRange): Promise<number> {
  if (!range.parts.includes('sessions')) return 0;
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from sessions s where s.workspace_id = $1
       and ($2::timestamptz is null or s.started_at >= $2) and ($3::timestamptz is null or s.started_at <= $3)`,
    [range.workspaceId, range.from ?? null, range.to ?? null],
  );
  return rows[0]?.n ?? 0;
}

async function* sessionLines(db: Queryable, range: ExportRange, counts: ExportCounts): AsyncGenerator<ExportLine> {
  // Keyset paging by (started_at, id): sessions recorded while the export runs neither repeat nor shift pages.
  let after: { startedAt: string; id: string } | null = null;
  for (;;) {
    const page: SessionRow[] = await db.query<SessionRow>(
      `select ${SESSION_COLUMNS} from sessions s join servers srv on srv.id = s.server_id
       where s.workspace_id = $1 and ($2::timestamptz is null or s.started_at >= $2) and ($3::timestamptz is null or s.started_at <= $3)
         and ($4::timestamptz is null or (s.started_at, s.id) > ($4::timestamptz, $5::uuid))
       order by s.started_at, s.id limit ${SESSION_PAGE}`,
      [range.workspaceId, range.from ?? null, range.to ?? null, after?.startedAt ?? null, after?.id ?? null],
    );
    for (const row of page) {
      const session = toSessionDto(row);
      counts.sessions++;
      yield { type: 'session', session };
      const sentCalls = new Set<string>();
      for (let offset = 0; ; offset += MESSAGE_PAGE) {
        const replay = await replaySession(db, session, { limit: MESSAGE_PAGE, offset });
        for (const message of replay.messages) {
          counts.messages++;
          yield { type: 'message', sessionId: session.id, message };
        }
        for (const toolCall of replay.toolCalls) {
          if (sentCalls.has(toolCall.id)) continue;
          sentCalls.add(toolCall.id);
          counts.toolCalls++;
          yield { type: 'toolCall', sessionId: session.id, toolCall };
        }
        if (replay.messages.length < MESSAGE_PAGE) break;
      }
    }
    const last = page.at(-1);
    if (!last || page.length < SESSION_PAGE) return;
    after = { startedAt: new Date(last.started_at).toISOString(), id: last.id };
  }
}

interface AuditRow {
  id: string;
  action: string;
  actor_user_id: string | null;
  actor_email: string | null;
  target: string | null;
  details: Record<string, unknown> | string;
  created_at: Date | string;
}

async function* auditLines(db: Queryable, range: ExportRange, counts: ExportCounts): AsyncGenerator<ExportLine> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const page: AuditRow[] = await db.query<AuditRow>(
      `select a.id, a.action, a.actor_user_id, u.email as actor_email, a.target, a.details, a.created_at
       from audit_events a left join users u on u.id = a.actor_user_id
       where a.workspace_id = $1 and ($2::timestamptz is null or a.created_at >= $2) and ($3::timestamptz is null or a.created_at <= $3)
         and ($4::timestamptz is null or (a.created_at, a.id) > ($4::timestamptz, $5::uuid))
       order by a.created_at, a.id limit ${AUDIT_PAGE}`,
      [range.workspaceId, range.from ?? null, range.to ?? null, after?.createdAt ?? null, after?.id ?? null],
    );
    for (const row of page) {
      const event: AuditEventDto = {
        id: row.id,
        action: row.action,
        actor: row.actor_user_id && row.actor_email ? { userId: row.actor_user_id, email: row.actor_email } : null,
        target: row.target,
        details: typeof row.details === 'string' ? (JSON.parse(row.details) as Record<string, unknown>) : row.details,
        createdAt: new Date(row.created_at).toISOString(),
      };
      counts.auditEvents++;
      yield { type: 'audit', event };
    }
    const last = page.at(-1);
    if (!last || page.length < AUDIT_PAGE) return;
    after = { createdAt: new Date(last.created_at).toISOString(), id: last.id };
  }
}

/** Every line of the export, header first and the counts last. */
export async function* exportLines(db: Queryable, range: ExportRange, now: Date): AsyncGenerator<ExportLine> {
  const counts: ExportCounts = { sessions: 0, messages: 0, toolCalls: 0, auditEvents: 0 };
  yield {
    type: 'export',
    version: EXPORT_FORMAT_VERSION,
    workspaceId: range.workspaceId,
    from: range.from ?? null,
    to: range.to ?? null,
    parts: range.parts,
    exportedAt: now.toISOString(),
    sessions: await countExportSessions(db, range),
  };
  if (range.parts.includes('sessions')) yield* sessionLines(db, range, counts);
  if (range.parts.includes('audit')) yield* auditLines(db, range, counts);
  yield { type: 'end', ...counts };
}
