import Box from '@mui/material/Box';
import type { AnalyticsOverviewResult } from '../../../../contract/analytics';
import { KpiCard } from '../../../components/analytics/KpiCard';
import {
  formatCount,
  formatErrorRate,
  formatMs,
  formatUsd,
  tokenDetail,
  type TokenCorrection,
} from '../../../components/analytics/format';

type Totals = AnalyticsOverviewResult['totals'];

/** A headline total: how it reads, and whether a rise against the period before is good news. */
interface OverviewKpi {
  measure: 'calls' | 'errors' | 'sessions' | 'clients' | 'tokens' | 'cost' | 'p95Ms';
  label: string;
  /** The value shown; zero (or no latency) while loading. */
  value: (totals: Totals | undefined) => string;
  detail?: (totals: Totals, tokenCorrection: TokenCorrection | undefined) => string;
  higherIsBetter?: boolean;
}

const KPIS: OverviewKpi[] = [
  { measure: 'calls', label: 'Calls', value: (totals) => formatCount(totals?.calls ?? 0) },
  {
    measure: 'errors',
    label: 'Errors',
    value: (totals) =>
      `${formatCount(totals?.errors ?? 0)} · ${formatErrorRate(totals?.errors ?? 0, totals?.calls ?? 0)}`,
    higherIsBetter: false,
  },
  { measure: 'sessions', label: 'Sessions', value: (totals) => formatCount(totals?.sessions ?? 0) },
  { measure: 'clients', label: 'Clients', value: (totals) => formatCount(totals?.clients ?? 0) },
  {
    measure: 'tokens',
    label: 'Tokens',
    value: (totals) => formatCount(totals?.tokens ?? 0),
    detail: (totals, tokenCorrection) => tokenDetail(totals.tokens, totals.definitionTokens, tokenCorrection),
    higherIsBetter: false,
  },
  { measure: 'cost', label: 'Cost', value: (totals) => formatUsd(totals?.cost ?? 0), higherIsBetter: false },
  { measure: 'p95Ms', label: 'p95 latency', value: (totals) => formatMs(totals?.p95Ms ?? null), higherIsBetter: false },
];

/** The overview's totals, each against the period before the range. */
export function OverviewKpis({
  overview,
  loading,
  tokenCorrection,
}: {
  overview: AnalyticsOverviewResult | undefined;
  loading: boolean;
  /** The workspace's model, when known: its tokens beside the tokenizer's. */
  tokenCorrection?: TokenCorrection;
}) {
  const totals = overview?.totals;
  const previous = overview?.previous;
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)', xl: 'repeat(7, 1fr)' },
        gap: 2,
      }}
    >
      {KPIS.map((kpi) => (
        <KpiCard
          key={kpi.measure}
          label={kpi.label}
          loading={loading}
          value={kpi.value(totals)}
          detail={totals && kpi.detail ? kpi.detail(totals, tokenCorrection) : undefined}
          // No p95 (no call in a period) compares with nothing.
          current={totals?.[kpi.measure] ?? undefined}
          previous={previous?.[kpi.measure] ?? undefined}
          higherIsBetter={kpi.higherIsBetter}
        />
      ))}
    </Box>
  );
}
