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

export function formatMs(value: number | null): string {
  if (value === null) return '—';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
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

/** A series point's time as its step shows it. */
export function formatStep(iso: string, step: '1m' | '1h' | '1d'): string {
  const date = new Date(iso);
  if (step === '1d') return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  if (step === '1h') return date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
  return date.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hour12: false });
}
