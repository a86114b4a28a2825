import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';

/** A titled panel of an analytics screen; a skeleton of its height while its data loads. */
export function ChartCard({
  title,
  subtitle,
  action,
  loading,
  height = 280,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  action?: ReactNode;
  loading?: boolean;
  height?: number;
  children: ReactNode;
}) {
  return (
    // No height of its own: in a grid row the cards stretch alike; alone it is as tall as its content
    // (height: 100% made a lone chart card as tall as the page, issue 38).
    <Card variant="outlined" sx={{ borderRadius: 3 }} component="section" aria-label={title}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mb: 1.5 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {title}
            </Typography>
            {subtitle && (
              <Typography variant="caption" color="text.secondary">
                {subtitle}
              </Typography>
            )}
          </Box>
          {action}
        </Box>
        {loading ? <Skeleton variant="rounded" height={height} /> : children}
      </CardContent>
    </Card>
  );
}
