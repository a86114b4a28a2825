import { useSyncExternalStore } from 'react';

// How the app shows dates and times: the user's time zone and formats (Preferences, docs/settings.md).
// One module-level setting, so every date on every screen follows the same preference; the
// settings feature feeds it when the preferences load or change, components read it with a hook.
export interface DateDisplay {
  /** An IANA name; undefined means the browser's own zone. */
  timeZone?: string;
  dateFormat: 'locale' | 'iso' | 'dmy' | 'mdy';
  timeFormat: 'locale' | '24h' | '12h';
}

const DEFAULT_DISPLAY: DateDisplay = { dateFormat: 'locale', timeFormat: 'locale' };
let current: DateDisplay = DEFAULT_DISPLAY;
const listeners = new Set<() => void>();

function isUsableZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function setDateDisplay(next: Partial<DateDisplay>): void {
  // A zone this browser does not know (or none) means the browser's own: dates never fail to show.
  const merged: DateDisplay = {
    ...DEFAULT_DISPLAY,
    ...next,
    timeZone: isUsableZone(next.timeZone) ? next.timeZone : undefined,
  };
  if (
    merged.timeZone === current.timeZone &&
    merged.dateFormat === current.dateFormat &&
    merged.timeFormat === current.timeFormat
  )
    return;
  current = merged;
  for (const listener of listeners) listener();
}

export function getDateDisplay(): DateDisplay {
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders the caller when the display preference changes. */
export function useDateDisplay(): DateDisplay {
  return useSyncExternalStore(subscribe, getDateDisplay, getDateDisplay);
}

function parts(date: Date, display: DateDisplay): Record<string, string> {
  const out: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: display.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  for (const part of format.formatToParts(date)) out[part.type] = part.value;
  return out;
}

function hour12(hour: string): { hour: string; suffix: string } {
  const h = Number(hour);
  return { hour: String(h % 12 === 0 ? 12 : h % 12), suffix: h < 12 ? 'AM' : 'PM' };
}

export function formatDate(value: string | number | Date, display: DateDisplay = current): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  if (display.dateFormat === 'locale') return date.toLocaleDateString(undefined, { timeZone: display.timeZone });
  const p = parts(date, display);
  if (display.dateFormat === 'iso') return `${p.year}-${p.month}-${p.day}`;
  if (display.dateFormat === 'dmy') return `${p.day}/${p.month}/${p.year}`;
  return `${p.month}/${p.day}/${p.year}`;
}

export function formatTime(
  value: string | number | Date,
  display: DateDisplay = current,
  { seconds = true } = {},
): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  if (display.timeFormat === 'locale') {
    return date.toLocaleTimeString(undefined, {
      timeZone: display.timeZone,
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
    });
  }
  const p = parts(date, display);
  if (display.timeFormat === '24h') return `${p.hour}:${p.minute}${seconds ? `:${p.second}` : ''}`;
  const { hour, suffix } = hour12(p.hour);
  return `${hour}:${p.minute}${seconds ? `:${p.second}` : ''} ${suffix}`;
}

export function formatDateTime(value: string | number | Date, display: DateDisplay = current): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${formatDate(date, display)}, ${formatTime(date, display)}`;
}

/** Every IANA zone the browser knows, for the time zone picker. */
export function knownTimeZones(): string[] {
  // Older browsers lack Intl.supportedValuesOf (TypeScript's lib declares it always there): the picker then offers UTC.
  const withList = Intl as { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = withList.supportedValuesOf?.('timeZone') ?? [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** "14:03:22.120": an event's clock time to the millisecond, in the preferred zone and hour cycle. */
export function formatPreciseTime(value: string | number | Date, display: DateDisplay = current): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const p = parts(date, display);
  const ms = String(date.getMilliseconds()).padStart(3, '0');
  if (display.timeFormat === '12h') {
    const { hour, suffix } = hour12(p.hour);
    return `${hour}:${p.minute}:${p.second}.${ms} ${suffix}`;
  }
  return `${p.hour}:${p.minute}:${p.second}.${ms}`;
}
