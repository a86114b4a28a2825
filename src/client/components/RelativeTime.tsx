import Tooltip from '@mui/material/Tooltip';

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
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.round(seconds / size), unit);
  }
  return '';
}

export function RelativeTime({ value, now }: { value: string | number | Date; now?: number }) {
  const date = new Date(value);
  return (
    <Tooltip title={date.toLocaleString()}>
      <time dateTime={date.toISOString()}>{formatRelativeTime(date, now)}</time>
    </Tooltip>
  );
}
