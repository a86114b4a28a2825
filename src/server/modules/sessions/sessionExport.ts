import type { SessionExport, SessionListItem } from '../../../contract/sessions';

// The sessions list's export (GET …/sessions/export): the filtered sessions as CSV or JSON.

const CSV_COLUMNS: { header: string; value: (s: SessionListItem) => string | number }[] = [
  { header: 'id', value: (s) => s.id },
  { header: 'status', value: (s) => s.status },
  { header: 'server', value: (s) => s.serverName ?? '' },
  { header: 'server_id', value: (s) => s.serverId },
  { header: 'client', value: (s) => s.clientName ?? '' },
  { header: 'client_version', value: (s) => s.clientVersion ?? '' },
  { header: 'protocol_version', value: (s) => s.protocolVersion ?? '' },
  { header: 'transport', value: (s) => s.transport },
  { header: 'started_at', value: (s) => s.startedAt },
  { header: 'ended_at', value: (s) => s.endedAt ?? '' },
  { header: 'duration_ms', value: (s) => s.durationMs },
  { header: 'messages', value: (s) => s.messageCount },
  { header: 'calls', value: (s) => s.callCount },
  { header: 'errors', value: (s) => s.errorCount },
  { header: 'tokens', value: (s) => s.tokens },
  { header: 'cost_usd', value: (s) => s.cost },
];

/**
 * One CSV field (RFC 4180). Client and server names come from agents and users: a text starting
 * with = + - @ (or a tab/CR) would run as a formula in a spreadsheet, so it is prefixed with '.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function sessionsCsv(sessions: readonly SessionListItem[]): string {
  const lines = [CSV_COLUMNS.map((c) => c.header).join(',')];
  for (const session of sessions) lines.push(CSV_COLUMNS.map((c) => csvField(c.value(session))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function sessionsJson(sessions: SessionListItem[], total: number, exportedAt: Date): SessionExport {
  return { exportedAt: exportedAt.toISOString(), total, sessions };
}

/** sessions-2026-11-25T1530Z.csv */
export function exportFilename(format: 'csv' | 'json', at: Date): string {
  return `sessions-${at.toISOString().slice(0, 16).replace(/:/g, '')}Z.${format}`;
}
