import { z } from 'zod';
import { isoTime } from './queryFields';
import type { AuditEventDto } from './audit';
import type { MessageDto, SessionDto, ToolCallDto } from './sessions';

// The workspace's data as JSON Lines (GET …/workspaces/{id}/export; docs/api.md "Export"): one
// JSON object per line, streamed, sessions with their messages and tool calls in the replay's
// format, then the audit log. A reader can start before the end and count lines as progress;
// the last line says what was sent, so a cut-off download is told from a whole one.

export const EXPORT_FORMAT_VERSION = 1;
export const EXPORT_PARTS = ['sessions', 'audit'] as const;
export type ExportPart = (typeof EXPORT_PARTS)[number];

export const DataExportQuery = z
  .strictObject({
    /** Sessions started and audit events recorded at or after. */
    from: isoTime.optional(),
    /** … and at or before. */
    to: isoTime.optional(),
    /** Comma-separated parts (default both). */
    include: z
      .string()
      .optional()
      .transform((text, ctx) => {
        const parts = (text ?? EXPORT_PARTS.join(',')).split(',').map((p) => p.trim());
        const unknown = parts.filter((p) => !(EXPORT_PARTS as readonly string[]).includes(p));
        if (unknown.length > 0 || parts.length === 0) {
          ctx.addIssue({ code: 'custom', message: `Expected parts among ${EXPORT_PARTS.join(', ')}` });
          return z.NEVER;
        }
        return [...new Set(parts)] as ExportPart[];
      }),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    error: 'Must not be before from',
    path: ['to'],
  });
export type DataExportQuery = z.input<typeof DataExportQuery>;

export interface ExportCounts {
  sessions: number;
  messages: number;
  toolCalls: number;
  auditEvents: number;
}

export type ExportLine =
  | {
      type: 'export';
      version: number;
      workspaceId: string;
      from: string | null;
      to: string | null;
      parts: ExportPart[];
      exportedAt: string;
      /** Sessions the export will hold: progress is sessions written / this. */
      sessions: number;
    }
  | { type: 'session'; session: SessionDto }
  | { type: 'message'; sessionId: string; message: MessageDto }
  | { type: 'toolCall'; sessionId: string; toolCall: ToolCallDto }
  | { type: 'audit'; event: AuditEventDto }
  | ({ type: 'end' } & ExportCounts);

/** toolscope-export-2026-11-29T0130Z.jsonl */
export function exportFilename(at: Date): string {
  return `toolscope-export-${at.toISOString().slice(0, 16).replace(/:/g, '')}Z.jsonl`;
}

/** The daily export (GET/PUT …/workspaces/{id}/export-schedule): yesterday's data, every day, to the operator's folder. */
export const ExportSchedule = z.object({
  enabled: z.boolean(),
  /** The operator named a folder (TOOLSCOPE_EXPORT_DIR); without one nothing can be scheduled. */
  available: z.boolean(),
  /** The last UTC day written (YYYY-MM-DD), or null. */
  exportedThrough: z.string().nullable(),
});
export type ExportSchedule = z.infer<typeof ExportSchedule>;

export const UpdateExportScheduleBody = z.strictObject({ enabled: z.boolean({ error: 'Expected true or false' }) });
export type UpdateExportScheduleBody = z.infer<typeof UpdateExportScheduleBody>;

export const ExportText = {
  onlyOwnerSchedules: 'Only the owner can schedule exports',
  noExportFolder: 'Scheduled exports are off on this Toolscope: the operator has not named an export folder',
} as const;

/** The daily file of one UTC day: toolscope-export-2026-11-28.jsonl */
export function dailyExportFilename(day: string): string {
  return `toolscope-export-${day}.jsonl`;
}
