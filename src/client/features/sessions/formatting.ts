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

/** "14:03:22.120" — the clock time of an event, to the millisecond. */
export function formatClockTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

export const sessionPath = (sessionId: string) => `/sessions/${sessionId}`;
export const serverPath = (serverId: string) => `/servers?serverId=${encodeURIComponent(serverId)}`;
export const reasoningPath = (sessionId: string) => `/thought-tracing?sessionId=${encodeURIComponent(sessionId)}`;
