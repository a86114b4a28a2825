import { skipToken } from '@reduxjs/toolkit/query/react';
import Box from '@mui/material/Box';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import {
  useGetToolAnalyticsQuery,
  useGetTrafficCostsQuery,
  useGetTrafficOverviewQuery,
  useGetUsageDailyQuery,
} from '../../../api/analyticsApi';
import { useAppSelector } from '../../../app/hooks';
import { AnalyticsPageFrame } from '../../../components/analytics/AnalyticsPageFrame';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { formatStep, stepSubtitle } from '../../../components/analytics/format';
import { useDateDisplay } from '../../../components/dates/dateDisplay';
import { useAnalyticsRange } from '../../../components/analytics/useAnalyticsRange';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { OverviewKpis } from '../components/OverviewKpis';
import { TopClients } from '../components/TopClients';
import { TopTools } from '../components/TopTools';
import { RetentionNotice } from '../../../components/RetentionNotice';

/** /analytics: the range's headline numbers against the period before, traffic over time, top tools and clients, sessions per day. */
export default function AnalyticsPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const { query, setFilters } = useAnalyticsRange();
  const args = workspaceId ? { workspaceId, ...query } : skipToken;
  const overview = useGetTrafficOverviewQuery(args);
  const tools = useGetToolAnalyticsQuery(args);
  const costs = useGetTrafficCostsQuery(args);
  const usage = useGetUsageDailyQuery(args);
  // Axes follow the user's time zone and hour cycle: redrawn when the preference changes.
  const display = useDateDisplay();

  const data = overview.data;
  const step = data?.range.step ?? '1h';
  return (
    <AnalyticsPageFrame
      title="Analytics"
      subtitle="Usage over time, by tool and by client"
      serverName={(id) => costs.data?.byServer.find((s) => s.id === id)?.name ?? id}
      workspaceId={workspaceId}
      query={overview}
      notice={<RetentionNotice retention={data?.range.retention} subject="analytics" />}
      empty={{
        when: Boolean(data && data.totals.calls === 0 && data.totals.sessions === 0 && data.previous.calls === 0),
        icon: <InsightsOutlinedIcon />,
        title: 'No traffic in this range',
        description:
          "Point an agent at a tool server's proxy URL: its calls, errors, sessions and clients will be charted here within seconds.",
      }}
    >
      <OverviewKpis
        overview={data}
        loading={!data}
        tokenCorrection={
          costs.data
            ? {
                model: costs.data.prices.modelName,
                factor: costs.data.prices.correctionFactor,
                exact: costs.data.prices.exactTokenizer,
              }
            : undefined
        }
      />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' }, gap: 2, mt: 2 }}>
        <ChartCard title="Calls and errors" subtitle={stepSubtitle(step, display)} loading={!data}>
          {data && (
            <LineChart
              height={280}
              xAxis={[
                {
                  scaleType: 'time',
                  data: data.series.map((point) => new Date(point.t)),
                  valueFormatter: (value: Date) => formatStep(value.toISOString(), step, display),
                },
              ]}
              series={[
                // A line needs two points: a lone bucket is drawn as a mark.
                {
                  data: data.series.map((point) => point.calls),
                  label: 'Calls',
                  showMark: data.series.length === 1,
                  area: true,
                },
                {
                  data: data.series.map((point) => point.errors),
                  label: 'Errors',
                  showMark: data.series.length === 1,
                  color: '#f87171',
                },
              ]}
              margin={{ left: 8, right: 16 }}
            />
          )}
        </ChartCard>
        <ChartCard
          title="Sessions per day"
          subtitle={usage.data ? `Days in ${usage.data.timeZone}` : undefined}
          loading={!usage.data}
        >
          {usage.data && (
            <BarChart
              height={280}
              xAxis={[{ scaleType: 'band', data: usage.data.days.map((day) => day.date.slice(5)) }]}
              series={[{ data: usage.data.days.map((day) => day.sessions), label: 'Sessions' }]}
              margin={{ left: 8, right: 8 }}
            />
          )}
        </ChartCard>
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, gap: 2, mt: 2 }}>
        <TopTools tools={tools.data?.tools} onTool={(tool, serverId) => setFilters({ tool, serverId })} />
        <TopClients clients={costs.data?.byClient} onClient={(client) => setFilters({ client })} />
      </Box>
    </AnalyticsPageFrame>
  );
}
