import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import TrendingDownIcon from '@mui/icons-material/TrendingDown';
import TrendingFlatIcon from '@mui/icons-material/TrendingFlat';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { changeRatio } from './format';

interface KpiCardProps {
  label: string;
  value: string;
  current?: number;
  previous?: number;
  /** Whether a rise is good news (calls) or bad (errors, latency, cost): colours the change. */
  higherIsBetter?: boolean;
  loading?: boolean;
  /** A line under the value saying what it includes (e.g. the tool definitions in a token total). */
  detail?: string;
}

/** A headline number with its change against the previous equal period. */
export function KpiCard({ label, value, current, previous, higherIsBetter = true, loading, detail }: KpiCardProps) {
  const ratio = current === undefined || previous === undefined ? undefined : changeRatio(current, previous);
  const good = ratio === undefined || ratio === null || ratio === 0 ? null : ratio > 0 === higherIsBetter;
  const Icon = !ratio ? TrendingFlatIcon : ratio > 0 ? TrendingUpIcon : TrendingDownIcon;
  return (
    <Card variant="outlined" sx={{ borderRadius: 3, height: '100%' }} role="group" aria-label={label}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 500, mb: 1 }}>
          {label}
        </Typography>
        {loading ? (
          <>
            <Skeleton variant="text" width="60%" sx={{ fontSize: 30 }} />
            <Skeleton variant="text" width="40%" />
          </>
        ) : (
          <>
            <Typography
              variant="h5"
              component="p"
              data-testid={`kpi-${label}`}
              sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
            >
              {value}
            </Typography>
            {detail && (
              <Typography variant="caption" color="text.secondary" component="p" data-testid={`kpi-detail-${label}`}>
                {detail}
              </Typography>
            )}
            {ratio !== undefined && (
              <Box
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 0.5,
                  mt: 0.5,
                  color: good === null ? 'text.secondary' : good ? 'success.main' : 'error.main',
                  '& svg': { fontSize: 16 },
                }}
                data-testid={`kpi-change-${label}`}
              >
                <Icon />
                <Typography variant="caption">
                  {ratio === null
                    ? 'new in this period'
                    : `${ratio > 0 ? '+' : ''}${(ratio * 100).toFixed(0)}% vs previous`}
                </Typography>
              </Box>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
