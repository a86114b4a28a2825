import { formatTime } from '../../../components/dates/dateDisplay';
import { memo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { TimeSeries, TimeSeriesPoint } from '../../../../contract/timeSeries';

const HEIGHT = 64;

/** Calls per bucket as bars (errors in red under the successes), from the time-series endpoint. */
export const CallsChart = memo(function CallsChart({ series, title }: { series: TimeSeries; title: string }) {
  const total = series.points.reduce((sum, p) => sum + p.calls, 0);
  const errors = series.points.reduce((sum, p) => sum + p.errors, 0);
  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'baseline', mb: 0.5 }}>
        <Typography variant="subtitle2">{title}</Typography>
        <Typography
          variant="caption"
          color="text.secondary"
        >{`${total.toLocaleString()} calls · ${errors.toLocaleString()} errors`}</Typography>
      </Box>
      {total === 0 ? (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ height: HEIGHT, display: 'flex', alignItems: 'center' }}
        >
          No calls in this period.
        </Typography>
      ) : (
        <Bars points={series.points} label={`${title}: ${total} calls, ${errors} errors`} />
      )}
    </Box>
  );
});

function Bars({ points, label }: { points: TimeSeriesPoint[]; label: string }) {
  const max = Math.max(1, ...points.map((p) => p.calls));
  const width = 100 / Math.max(1, points.length);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 100 ${HEIGHT}`}
      preserveAspectRatio="none"
      width="100%"
      height={HEIGHT}
    >
      {points.map((point, index) => {
        const okHeight = ((point.calls - point.errors) / max) * HEIGHT;
        const errorHeight = (point.errors / max) * HEIGHT;
        return (
          <g key={point.bucket}>
            <title>{`${formatTime(point.bucket)}: ${point.calls} calls, ${point.errors} errors`}</title>
            <rect
              x={index * width + width * 0.1}
              width={width * 0.8}
              y={HEIGHT - okHeight - errorHeight}
              height={okHeight}
              fill="#4fc3f7"
            />
            <rect
              x={index * width + width * 0.1}
              width={width * 0.8}
              y={HEIGHT - errorHeight}
              height={errorHeight}
              fill="#f44336"
            />
          </g>
        );
      })}
    </svg>
  );
}
