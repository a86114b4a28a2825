import { skipToken } from '@reduxjs/toolkit/query/react';
import Button from '@mui/material/Button';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import PieChartOutlineIcon from '@mui/icons-material/PieChartOutlined';
import { DEFINITIONS_ROW_SUFFIX } from '../../../../contract/analytics';
import { useGetTrafficCostsQuery } from '../../../api/analyticsApi';
import { useAppSelector } from '../../../app/hooks';
import { AnalyticsPageFrame } from '../../../components/analytics/AnalyticsPageFrame';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { formatUsd } from '../../../components/analytics/format';
import { useAnalyticsRange } from '../../../components/analytics/useAnalyticsRange';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import {
  attributionCsv,
  attributionRows,
  DIMENSION_LABELS,
  DIMENSIONS,
  readDimension,
  type AttributionRow,
  type Dimension,
} from '../attributionRows';
import { downloadFile } from '../../../components/downloadFile';
import { AttributionTable } from '../components/AttributionTable';

/** Where a row leads when clicked: a narrower filter and the next dimension down. */
const DRILL_DOWN: Partial<Record<Dimension, Dimension>> = {
  server: 'tool',
  tool: 'client',
  client: 'session',
  key: 'session',
};

/** /cost-attribution: the range's spend broken down by a chosen dimension, with drill-down and CSV export. */
export default function CostAttributionPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const { query, search, setParam, setView } = useAnalyticsRange();
  const dimension = readDimension(search.get('by'));
  const costs = useGetTrafficCostsQuery(workspaceId ? { workspaceId, ...query } : skipToken);
  const data = costs.data;
  const serverName = (id: string) => data?.byServer.find((server) => server.id === id)?.name ?? id;
  const rows = data ? attributionRows(data, dimension) : [];
  const drill = (row: AttributionRow) => {
    const next = DRILL_DOWN[dimension];
    // A server's tool definitions are no tool: nothing to drill into.
    if (!next || row.id.endsWith(DEFINITIONS_ROW_SUFFIX)) return;
    if (dimension === 'server') setView({ serverId: row.id }, { by: next });
    else if (dimension === 'tool') setView({ serverId: row.serverId ?? undefined, tool: row.name }, { by: next });
    else if (dimension === 'client') setView({ client: row.id }, { by: next });
    else if (dimension === 'key') setView({ keyId: row.id }, { by: next });
  };
  const exportCsv = () =>
    downloadFile(
      attributionCsv(rows, dimension),
      `cost-attribution-${dimension}-${data?.range.from.slice(0, 10)}-${data?.range.to.slice(0, 10)}.csv`,
      'text/csv;charset=utf-8',
    );

  return (
    <AnalyticsPageFrame
      title="Cost Attribution"
      subtitle="Which servers, tools, clients, keys and sessions the spend comes from"
      serverName={serverName}
      workspaceId={workspaceId}
      query={costs}
      empty={{
        when: Boolean(data && data.byServer.length === 0),
        icon: <PieChartOutlineIcon />,
        title: 'Nothing to attribute yet',
        description:
          'Once agents call tools through a proxy URL, their spend is broken down here by server, tool, client, platform key and session.',
      }}
    >
      <ChartCard
        title={`Cost by ${DIMENSION_LABELS[dimension].toLowerCase()}`}
        subtitle={
          data
            ? `${formatUsd(rows.reduce((sum, row) => sum + row.cost, 0))} in ${rows.length} row${rows.length === 1 ? '' : 's'}${DRILL_DOWN[dimension] ? ' · click a row to drill down' : ''}`
            : undefined
        }
        loading={!data}
        height={320}
        action={
          <Button
            size="small"
            variant="outlined"
            startIcon={<DownloadOutlinedIcon />}
            onClick={exportCsv}
            disabled={!data || rows.length === 0}
          >
            Export CSV
          </Button>
        }
      >
        <ToggleButtonGroup
          size="small"
          exclusive
          value={dimension}
          onChange={(_e, next: Dimension | null) => next && setParam('by', next)}
          aria-label="Break down by"
          sx={{ mb: 2, flexWrap: 'wrap' }}
        >
          {DIMENSIONS.map((option) => (
            <ToggleButton key={option} value={option}>
              {DIMENSION_LABELS[option]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <AttributionTable rows={rows} dimension={dimension} onDrill={DRILL_DOWN[dimension] ? drill : undefined} />
      </ChartCard>
    </AnalyticsPageFrame>
  );
}
