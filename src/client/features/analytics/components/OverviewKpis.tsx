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
      <KpiCard
        label="Calls"
        loading={loading}
        value={formatCount(totals?.calls ?? 0)}
        current={totals?.calls}
        previous={previous?.calls}
      />
      <KpiCard
        label="Errors"
        loading={loading}
        value={`${formatCount(totals?.errors ?? 0)} · ${formatErrorRate(totals?.errors ?? 0, totals?.calls ?? 0)}`}
        current={totals?.errors}
        previous={previous?.errors}
        higherIsBetter={false}
      />
      <KpiCard
        label="Sessions"
        loading={loading}
        value={formatCount(totals?.sessions ?? 0)}
        current={totals?.sessions}
        previous={previous?.sessions}
      />
      <KpiCard
        label="Clients"
        loading={loading}
        value={formatCount(totals?.clients ?? 0)}
        current={totals?.clients}
        previous={previous?.clients}
      />
      <KpiCard
        label="Tokens"
        loading={loading}
        value={formatCount(totals?.tokens ?? 0)}
        detail={totals ? tokenDetail(totals.tokens, totals.definitionTokens, tokenCorrection) : undefined}
        current={totals?.tokens}
        previous={previous?.tokens}
        higherIsBetter={false}
      />
      <KpiCard
        label="Cost"
        loading={loading}
        value={formatUsd(totals?.cost ?? 0)}
        current={totals?.cost}
        previous={previous?.cost}
        higherIsBetter={false}
      />
      <KpiCard
        label="p95 latency"
        loading={loading}
        value={formatMs(totals?.p95Ms ?? null)}
        current={totals?.p95Ms ?? undefined}
        previous={previous?.p95Ms ?? undefined}
        higherIsBetter={false}
      />
    </Box>
  );
}
