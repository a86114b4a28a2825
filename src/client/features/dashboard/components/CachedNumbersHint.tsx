import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import { RelativeTime } from '../../../components/RelativeTime';

interface Props {
  /** When the numbers on screen were fetched (an earlier visit's cache). */
  cachedAt: string;
  /** The refresh failed: the old numbers stay, and say so. */
  failed: boolean;
  onRetry: () => void;
}

/** Says that the numbers shown come from an earlier visit and are being fetched again. */
export function CachedNumbersHint({ cachedAt, failed, onRetry }: Props) {
  return (
    <Box
      component="span"
      role="status"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        ml: 1,
        color: failed ? 'warning.main' : 'text.secondary',
      }}
    >
      {failed ? (
        <>
          · Could not refresh: numbers from <RelativeTime value={cachedAt} />
          <Link component="button" type="button" variant="body2" onClick={onRetry}>
            Retry
          </Link>
        </>
      ) : (
        <>
          · <CircularProgress size={12} aria-hidden /> Refreshing numbers from <RelativeTime value={cachedAt} />…
        </>
      )}
    </Box>
  );
}
