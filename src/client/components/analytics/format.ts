import { formatTime, getDateDisplay, type DateDisplay } from '../dates/dateDisplay';

// Numbers of the analytics screens, formatted the same way everywhere.

const count = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export function formatCount(value: number): string {
  return Math.abs(value) >= 100_000 ? compact.format(value) : count.format(value);
}

/** Dollars with as many decimals as a small amount needs (API money has 6). */
export function formatUsd(value: number): string {
  if (value === 0) return '$0.00';
  const abs = Math.abs(value);
  const digits = abs >= 1 ? 2 : abs >= 0.01 ? 4 : 6;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

/** "38 ms", "220 ms", "2.02 s", "12.5 s": seconds from one second up, so 2019 ms never reads as "2019…" cut to look like 201 ms. */
export function formatMs(value: number | null): string {
  if (value === null) return '—';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1_000) return `${(value / 1000).toFixed(2)} s`;
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ms`;
}

export function formatPercent(rate: number): string {
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.001 ? 2 : 1)}%`;
}

/** The change against the previous period: null when there is nothing to compare with. */
export function changeRatio(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return (current - previous) / previous;
}

/**
 * A series point's time as its step shows it, in the user's time zone and hour cycle (Preferences:
 * the one rule every screen follows, issue 38). A day's bucket is a UTC day on the server, so a
 * day is shown as its UTC date (the chart's subtitle says "days in UTC").
 */
export function formatStep(iso: string, step: '1m' | '1h' | '1d', display: DateDisplay = getDateDisplay()): string {
  const date = new Date(iso);
  if (step === '1d') return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const time = formatTime(date, display, { seconds: false });
  if (step === '1m') return time;
  const day = date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: display.timeZone });
  return `${day}, ${time}`;
}

/** A chart's subtitle for its step: per minute and hour in the user's zone, per day in UTC days. */
export function stepSubtitle(step: '1m' | '1h' | '1d', display: DateDisplay = getDateDisplay()): string {
  if (step === '1d') return 'Per day (days in UTC)';
  return `Per ${step === '1h' ? 'hour' : 'minute'} (${display.timeZone ?? 'your browser’s time zone'})`;
}

/** The workspace's model as the token figures' correction names it. */
export interface TokenCorrection {
  model: string;
  factor: number;
  exact: boolean;
}

/**
 * What a token total includes, said beside it (docs/analytics.md "Token"): the tool definitions in
 * it, and — for a model the tokenizer is not exact for — the model's tokens the cost is priced on
 * (tokens × its correction factor), so tokens × price = cost reads off the screen.
 */
export function tokenDetail(tokens: number, definitionTokens: number, correction?: TokenCorrection): string {
  const parts = [
    definitionTokens > 0
      ? `incl. ${formatCount(definitionTokens)} of tool definitions`
      : 'calls only, no tool definitions',
  ];
  if (correction && correction.factor !== 1)
    parts.push(
      `≈ ${formatCount(Math.round(tokens * correction.factor))} ${correction.model} tokens (×${correction.factor}${correction.exact ? '' : ', est.'})`,
    );
  return parts.join(' · ');
}

/** An error rate, or "—" when there were no calls to fail. */
export function formatErrorRate(errors: number, calls: number): string {
  return calls === 0 ? '—' : formatPercent(errors / calls);
}
