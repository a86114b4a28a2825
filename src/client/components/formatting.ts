import {
  formatDate as formatPreferredDate,
  formatDateTime as formatPreferredDateTime,
  formatPreciseTime,
} from './dates/dateDisplay';
// Display helpers shared by the sessions, activity and reasoning pages.

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return `${minutes}m ${seconds}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatClient(name: string | null, version: string | null): string {
  if (!name) return 'Unknown client';
  return version ? `${name} ${version}` : name;
}

// Times follow the user's locale (12 or 24 hours, order of the date), one format everywhere:
// the clock time of an event to the millisecond, and a date with its time to the second.

/** "14:03:22.120" (or "2:03:22.120 PM") — the clock time of an event, to the millisecond. */
export function formatClockTime(iso: string): string {
  // In the user's time zone and hour cycle (Preferences).
  return formatPreciseTime(iso);
}

/** "Nov 25, 2026, 14:03:22" in the user's locale. */
export function formatDateTime(iso: string): string {
  return formatPreferredDateTime(iso);
}

/** "Nov 25, 2026" in the user's locale. */
export function formatDate(iso: string): string {
  return formatPreferredDate(iso);
}

/** "MCP 2025-11-25": a protocol version is a date, and must not read as one next to Started. */
export function formatProtocol(version: string | null): string {
  return version ? `MCP ${version}` : 'MCP version unknown';
}

export const sessionPath = (sessionId: string) => `/sessions/${sessionId}`;
export const serverPath = (serverId: string) => `/servers?serverId=${encodeURIComponent(serverId)}`;
export const reasoningPath = (sessionId: string) => `/thought-tracing?sessionId=${encodeURIComponent(sessionId)}`;
