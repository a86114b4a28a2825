import Tooltip from '@mui/material/Tooltip';
import { useClockFor } from './useClock';
import { formatDateTime, useDateDisplay } from './dates/dateDisplay';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];
const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 minutes ago" for a timestamp, relative to `now` (given in tests, the clock otherwise). */
export function formatRelativeTime(value: string | number | Date, now: number = Date.now()): string {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  if (!Number.isFinite(seconds)) return '';
  for (let i = 0; i < UNITS.length; i++) {
    const [unit, size] = UNITS[i];
    if (Math.abs(seconds) < size && unit !== 'second') continue;
    const rounded = Math.round(seconds / size);
    // Rounded up to a whole larger unit ("60 minutes", "24 hours"): said in that unit.
    const larger = UNITS[i - 1] as [Intl.RelativeTimeFormatUnit, number] | undefined;
    if (larger && Math.abs(rounded) * size >= larger[1])
      return format.format(Math.round(seconds / larger[1]), larger[0]);
    return format.format(rounded, unit);
  }
  return '';
}

/**
 * A time relative to now that stays true: it is redrawn as it ages (every second while under a
 * minute old), from a clock shared by every relative time on the screen. `now` pins the clock
 * (tests). A time slightly ahead of this browser's clock (a server's) reads as now.
 */
export function RelativeTime({ value, now }: { value: string | number | Date; now?: number }) {
  const date = new Date(value);
  const time = date.getTime();
  const clock = useClockFor(time);
  const current = now ?? clock;
  const valid = Number.isFinite(time);
  const display = useDateDisplay();
  return (
    <Tooltip title={valid ? formatDateTime(date, display) : ''}>
      <time dateTime={valid ? date.toISOString() : undefined}>
        {valid ? formatRelativeTime(time, Math.max(current, time)) : ''}
      </time>
    </Tooltip>
  );
}
