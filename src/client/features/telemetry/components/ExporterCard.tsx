import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ExporterDto } from '../../../../contract/telemetry';
import { RelativeTime } from '../../../components/RelativeTime';
import { SwitchableCardTitle } from '../../../components/SwitchableCardTitle';
import { useGetExporterMetricsQuery } from '../telemetryApi';

interface ExporterCardProps {
  workspaceId: string;
  exporter: ExporterDto;
  canManage: boolean;
  testing: boolean;
  onToggle: (enabled: boolean) => void;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One exporter: where it sends, what, and its counters (refreshed while shown). */
export function ExporterCard({
  workspaceId,
  exporter,
  canManage,
  testing,
  onToggle,
  onTest,
  onEdit,
  onDelete,
}: ExporterCardProps) {
  const metrics = useGetExporterMetricsQuery({ workspaceId, id: exporter.id }, { pollingInterval: 10_000 }).currentData;
  const counters: [string, number | undefined][] = [
    ['Spans', metrics?.exportedSpans],
    ['Metric points', metrics?.exportedMetricPoints],
    ['Failed exports', metrics?.failedExports],
    ['Dropped spans', metrics?.droppedSpans],
  ];
  return (
    <Card variant="outlined" component="article" aria-label={`${exporter.name} exporter`}>
      <CardContent>
        <SwitchableCardTitle
          name={exporter.name}
          component="h3"
          enabled={exporter.enabled}
          canManage={canManage}
          onToggle={onToggle}
        />
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {exporter.endpoint}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
          <Chip size="small" label={exporter.protocol} variant="outlined" />
          {exporter.signals.map((s) => (
            <Chip key={s} size="small" label={s} color="primary" variant="outlined" />
          ))}
          {exporter.samplingRatio < 1 && (
            <Chip size="small" label={`${Math.round(exporter.samplingRatio * 100)} % sampled`} variant="outlined" />
          )}
        </Stack>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 0.5, mt: 2, mb: 0 }}
        >
          {counters.map(([label, value]) => (
            <Box key={label}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {value ?? '—'}
              </Typography>
            </Box>
          ))}
        </Box>
        {metrics?.lastSuccessAt && (
          <Typography variant="caption" color="text.secondary">
            Last export <RelativeTime value={metrics.lastSuccessAt} />
          </Typography>
        )}
        {metrics?.lastError && (
          <Typography variant="caption" color="error.main" component="p" sx={{ overflowWrap: 'anywhere' }}>
            {metrics.lastError}
          </Typography>
        )}
      </CardContent>
      {canManage && (
        <CardActions sx={{ flexWrap: 'wrap' }}>
          <Button size="small" onClick={onTest} disabled={testing}>
            {testing ? 'Sending…' : 'Send test span'}
          </Button>
          <Button size="small" onClick={onEdit}>
            Edit
          </Button>
          <Button size="small" color="error" onClick={onDelete}>
            Delete
          </Button>
        </CardActions>
      )}
    </Card>
  );
}
