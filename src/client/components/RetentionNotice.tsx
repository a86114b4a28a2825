import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import type { RangeRetention } from '../../contract/retention';
import { formatDate } from './formatting';

// What of a range is no longer kept (contract/retention.ts): a screen that reads recorded data
// says so, so an expired part never reads as a quiet day. Analytics count from rollups, which
// outlive raw data; the sessions list reads raw data only.

export function RetentionNotice({
  retention,
  subject,
  rangeChosen = true,
}: {
  retention: RangeRetention | undefined;
  subject: 'analytics' | 'sessions';
  /** false: the list has no start date, so it always reaches back past what is kept — said quietly. */
  rangeChosen?: boolean;
}) {
  if (!retention) return null;
  if (subject === 'analytics' && retention.reachesPastRollups)
    return (
      <Alert severity="warning" sx={{ mb: 2 }} role="status">
        This range reaches past what Toolscope keeps: figures from before {formatDate(retention.rollupsKeptSince)} (and
        minute detail from further back than a few weeks) are no longer stored, so that part is missing — not zero.
      </Alert>
    );
  if (subject === 'analytics' && retention.reachesPastRaw)
    return (
      <Alert severity="info" sx={{ mb: 2 }} role="status">
        Sessions, messages and calls from before {formatDate(retention.rawKeptSince)} are no longer kept. The totals and
        charts still count them; their sessions cannot be opened.
      </Alert>
    );
  if (subject === 'sessions' && retention.reachesPastRaw && rangeChosen)
    return (
      <Alert severity="info" sx={{ mb: 2 }} role="status">
        This range reaches past what is kept: sessions from before {formatDate(retention.rawKeptSince)} were deleted, so
        none of them are listed.
      </Alert>
    );
  if (subject === 'sessions')
    return (
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        Sessions are kept since {formatDate(retention.rawKeptSince)}; older ones are deleted (Workspace Settings, Data).
      </Typography>
    );
  return null;
}
