import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';

interface StatCardProps {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  icon: ReactNode;
  loading?: boolean;
}

/** One headline number of the overview. */
export function StatCard({ label, value, detail, icon, loading }: StatCardProps) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 3, height: '100%' }} aria-label={label} role="group">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}>
          <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
            {label}
          </Typography>
          <Box sx={{ color: 'primary.light', display: 'flex', '& svg': { fontSize: 22 } }}>{icon}</Box>
        </Box>
        {loading ? (
          <>
            <Skeleton variant="text" width="50%" sx={{ fontSize: 34 }} />
            <Skeleton variant="text" width="70%" />
          </>
        ) : (
          <>
            <Typography
              variant="h4"
              component="p"
              data-testid={`stat-${label}`}
              sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
            >
              {value}
            </Typography>
            {detail && (
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
                {detail}
              </Typography>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
