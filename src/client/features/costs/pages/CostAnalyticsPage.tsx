import { skipToken } from '@reduxjs/toolkit/query/react';
import Box from '@mui/material/Box';
import PaidOutlinedIcon from '@mui/icons-material/PaidOutlined';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import type { AnalyticsCostsResult } from '../../../../contract/analytics';
import { useGetTrafficCostsQuery } from '../../../api/analyticsApi';
import { useAppSelector } from '../../../app/hooks';
import { AnalyticsEmptyState } from '../../../components/analytics/AnalyticsEmptyState';
import { AnalyticsPageFrame } from '../../../components/analytics/AnalyticsPageFrame';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { KpiCard } from '../../../components/analytics/KpiCard';
import { formatCount, formatUsd, tokenDetail } from '../../../components/analytics/format';
import { useAnalyticsRange } from '../../../components/analytics/useAnalyticsRange';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { ContextWeight } from '../components/ContextWeight';
import { PriceSettings } from '../components/PriceSettings';

/** /cost-analytics: spend over time by server, the token split, the month so far, context weight and prices. */
export default function CostAnalyticsPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const { filters, query } = useAnalyticsRange();
  const costs = useGetTrafficCostsQuery(workspaceId ? { workspaceId, ...query } : skipToken);
  const data = costs.data;
  const serverName = (id: string) => data?.byServer.find((server) => server.id === id)?.name ?? id;
  // Its own empty state, not the frame's: the prices below stay editable before any traffic.
  const nothing =
    data && data.byServer.length === 0 && data.contextWeight.length === 0 && Object.keys(filters).length === 0;
  const servers = data?.byServer ?? [];
  const split = data?.tokens;
  return (
    <AnalyticsPageFrame
      title="Cost Analytics"
      subtitle="What your agents' tool traffic costs their models, in tokens and dollars"
      serverName={serverName}
      workspaceId={workspaceId}
      query={costs}
    >
      {(selectedWorkspaceId) => (
        <>
          {nothing ? (
            <AnalyticsEmptyState
              icon={<PaidOutlinedIcon />}
              title="No cost data yet"
              description="Tool definitions, arguments and results are counted in tokens and priced at your model's rates as soon as agents use a proxy URL."
            />
          ) : (
            <>
              <Box
                sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, gap: 2 }}
              >
                <KpiCard label="Cost in range" loading={!data} value={formatUsd(data?.total ?? 0)} />
                <KpiCard label="Month to date" loading={!data} value={formatUsd(data?.monthToDate.cost ?? 0)} />
                <KpiCard
                  label="Projected month end"
                  loading={!data}
                  value={
                    data?.monthToDate.projectedMonthEnd === null || data === undefined
                      ? '—'
                      : formatUsd(data.monthToDate.projectedMonthEnd)
                  }
                  detail={data ? projectionBasis(data.monthToDate) : undefined}
                />
                <KpiCard
                  label="Tokens in range"
                  loading={!data}
                  value={formatCount(split ? split.definitions + split.arguments + split.results : 0)}
                  detail={
                    data && split
                      ? tokenDetail(split.definitions + split.arguments + split.results, split.definitions, {
                          model: data.prices.modelName,
                          factor: data.prices.correctionFactor,
                          exact: data.prices.exactTokenizer,
                        })
                      : undefined
                  }
                />
              </Box>
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' }, gap: 2, mt: 2 }}>
                <ChartCard title="Cost over time" subtitle="Per day (UTC), stacked by server" loading={!data}>
                  {data && (
                    <BarChart
                      height={280}
                      xAxis={[{ scaleType: 'band', data: data.byDay.map((day) => day.date.slice(5)) }]}
                      yAxis={[{ width: 72, valueFormatter: (value: number | null) => formatUsd(value ?? 0) }]}
                      series={servers.map((server) => ({
                        data: data.byDay.map((day) => day.byServer[server.id] ?? 0),
                        label: server.name,
                        stack: 'cost',
                        valueFormatter: (value: number | null) => formatUsd(value ?? 0),
                      }))}
                      margin={{ left: 24, right: 8 }}
                    />
                  )}
                </ChartCard>
                <ChartCard
                  title="Where the tokens go"
                  subtitle="Definitions and results are model input, arguments model output"
                  loading={!data}
                >
                  {split && (
                    <PieChart
                      height={280}
                      series={[
                        {
                          innerRadius: 50,
                          data: [
                            {
                              id: 'definitions',
                              value: split.definitions,
                              label: `Definitions (${formatCount(split.definitions)})`,
                            },
                            {
                              id: 'arguments',
                              value: split.arguments,
                              label: `Arguments (${formatCount(split.arguments)})`,
                            },
                            { id: 'results', value: split.results, label: `Results (${formatCount(split.results)})` },
                          ],
                        },
                      ]}
                    />
                  )}
                </ChartCard>
              </Box>
              <Box sx={{ mt: 2 }}>
                <ContextWeight weights={data?.contextWeight} />
              </Box>
            </>
          )}
          <Box sx={{ mt: 2 }}>
            <PriceSettings workspaceId={selectedWorkspaceId} />
          </Box>
        </>
      )}
    </AnalyticsPageFrame>
  );
}

/** What the month-end projection rests on, in words (docs/analytics.md "Cost"). */
function projectionBasis(month: AnalyticsCostsResult['monthToDate']): string {
  if (month.basisFrom === null) return 'No traffic this month yet';
  const hours = month.basisHours;
  const span = hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
  return `At the rate of the last ${span} (since the month's first traffic, at least 1 h)`;
}
