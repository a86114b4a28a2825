import { skipToken } from '@reduxjs/toolkit/query/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { ErrorText } from '../../../../contract/errors';
import { errorMessage } from '../../../api/apiError';
import {
  useGetToolAnalyticsQuery,
  useGetTrafficCostsQuery,
  useGetTrafficOverviewQuery,
  useGetUsageDailyQuery,
} from '../../../api/analyticsApi';
import { useAppSelector } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';
import { AnalyticsEmptyState } from '../../../components/analytics/AnalyticsEmptyState';
import { AnalyticsToolbar } from '../../../components/analytics/AnalyticsToolbar';
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
  const { range, filters, query, setRange, setFilters } = useAnalyticsRange();
  const args = workspaceId ? { workspaceId, ...query } : skipToken;
  const overview = useGetTrafficOverviewQuery(args);
  const tools = useGetToolAnalyticsQuery(args);
  const costs = useGetTrafficCostsQuery(args);
  const usage = useGetUsageDailyQuery(args);
  // Axes follow the user's time zone and hour cycle: redrawn when the preference changes.
  const display = useDateDisplay();

  const header = (
    <PageHeader
      title="Analytics"
      subtitle="Usage over time, by tool and by client"
      actions={
        <AnalyticsToolbar
          range={range}
          onRange={setRange}
          filters={filters}
          onFilters={setFilters}
          serverName={(id) => costs.data?.byServer.find((s) => s.id === id)?.name ?? id}
        />
      }
    />
  );
  if (!workspaceId) {
    return (
      <>
        {header}
        <Alert severity="info">{ErrorText.noWorkspace}</Alert>
      </>
    );
  }
  if (overview.isError) {
    return (
      <>
        {header}
        <Alert severity="error">{errorMessage(overview.error)}</Alert>
      </>
    );
  }
  const data = overview.data;
  const empty =
    data &&
    data.totals.calls === 0 &&
    data.totals.sessions === 0 &&
    data.previous.calls === 0 &&
    Object.keys(filters).length === 0;
  if (empty) {
    return (
      <>
        {header}
        <RetentionNotice retention={data.range.retention} subject="analytics" />
        <AnalyticsEmptyState
          icon={<InsightsOutlinedIcon />}
          title="No traffic in this range"
          description="Point an agent at a tool server's proxy URL: its calls, errors, sessions and clients will be charted here within seconds."
        />
      </>
    );
  }
  const step = data?.range.step ?? '1h';
  return (
    <>
      {header}
      <RetentionNotice retention={data?.range.retention} subject="analytics" />
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
    </>
  );
}
