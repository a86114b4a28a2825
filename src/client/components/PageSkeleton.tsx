import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';

/** What a lazily loaded page shows while its code arrives (SPEC §2). */
export function PageSkeleton() {
  return (
    <Box role="progressbar" aria-label="Loading page" aria-busy="true" sx={{ p: { xs: 2, md: 3 } }}>
      <Skeleton variant="text" width={240} height={40} />
      <Skeleton variant="text" width={380} sx={{ mb: 3 }} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, mb: 2 }}>
        <Skeleton variant="rounded" height={110} />
        <Skeleton variant="rounded" height={110} />
        <Skeleton variant="rounded" height={110} />
      </Box>
      <Skeleton variant="rounded" height={280} />
    </Box>
  );
}
