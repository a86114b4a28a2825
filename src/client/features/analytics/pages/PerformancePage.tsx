import { useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import { LineChart } from '@mui/x-charts/LineChart';
import { useGetPerformanceSeriesQuery, useGetPerformanceSummaryQuery } from '../../../api/analyticsApi';
import { useAppSelector } from '../../../app/hooks';
import { AnalyticsPageFrame } from '../../../components/analytics/AnalyticsPageFrame';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { formatMs, formatStep, stepSubtitle } from '../../../components/analytics/format';
import { useDateDisplay } from '../../../components/dates/dateDisplay';
import { useAnalyticsRange } from '../../../components/analytics/useAnalyticsRange';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { ErrorsByTool } from '../components/ErrorsByTool';
import { SlowestTools } from '../components/SlowestTools';

type Percentile = 'p50Ms' | 'p95Ms' | 'p99Ms';

const onlyOnePoint = (values: (number | null)[]) => values.filter((value) => value !== null).length === 1;

/** /performance: latency percentiles per server over time, the slowest tools, errors by class and tool. */
export default function PerformancePage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const { query, setFilters } = useAnalyticsRange();
  const [percentile, setPercentile] = useState<Percentile>('p95Ms');
  const args = workspaceId ? { workspaceId, ...query } : skipToken;
  const summary = useGetPerformanceSummaryQuery(args);
  const series = useGetPerformanceSeriesQuery(args);
  // Axes follow the user's time zone and hour cycle: redrawn when the preference changes.
  const display = useDateDisplay();

  const serverName = (id: string) => summary.data?.servers.find((server) => server.serverId === id)?.serverName ?? id;
  const step = series.data?.range.step ?? '1h';
  const times = series.data?.servers[0]?.series.map((point) => new Date(point.t)) ?? [];
  return (
    <AnalyticsPageFrame
      title="Performance"
      subtitle="Latency and reliability of every tool"
      serverName={serverName}
      workspaceId={workspaceId}
      query={summary}
      empty={{
        when: Boolean(summary.data && summary.data.servers.length === 0),
        icon: <SpeedOutlinedIcon />,
        title: 'No calls in this range',
        description:
          'Latency percentiles (p50, p95, p99) and error rates per server and tool appear here as soon as calls go through a proxy URL.',
      }}
    >
      <>
        <ChartCard
          title="Latency over time"
          subtitle={`${stepSubtitle(step, display)} · per server, from merged latency sketches (within 1 %)`}
          loading={!series.data}
          action={
            <ToggleButtonGroup
              size="small"
              exclusive
              value={percentile}
              onChange={(_e, next: Percentile | null) => next && setPercentile(next)}
              aria-label="Percentile"
            >
              <ToggleButton value="p50Ms">p50</ToggleButton>
              <ToggleButton value="p95Ms">p95</ToggleButton>
              <ToggleButton value="p99Ms">p99</ToggleButton>
            </ToggleButtonGroup>
          }
        >
          {series.data && (
            <LineChart
              height={300}
              xAxis={[
                {
                  scaleType: 'time',
                  data: times,
                  valueFormatter: (value: Date) => formatStep(value.toISOString(), step, display),
                },
              ]}
              // Wide enough for "12.5 s" (labels were cut to "2019…"); the unit is in every label.
              yAxis={[{ width: 'auto', valueFormatter: (value: number | null) => formatMs(value) }]}
              series={series.data.servers.map((server) => ({
                data: server.series.map((point) => point[percentile]),
                label: server.serverName,
                // A line needs two points: a lone bucket is drawn as a mark.
                showMark: onlyOnePoint(server.series.map((point) => point[percentile])),
                connectNulls: true,
                valueFormatter: (value: number | null) => formatMs(value),
              }))}
              margin={{ left: 16, right: 16 }}
            />
          )}
        </ChartCard>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', xl: '3fr 2fr' }, gap: 2, mt: 2 }}>
          <SlowestTools tools={summary.data?.tools} onTool={(tool, serverId) => setFilters({ tool, serverId })} />
          <ErrorsByTool tools={summary.data?.tools} />
        </Box>
      </>
    </AnalyticsPageFrame>
  );
}
