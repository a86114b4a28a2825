import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ToolCallDto } from '../../../../contract/sessions';
import { RelativeTime } from '../../../components/RelativeTime';
import { formatDuration, sessionPath } from '../../../components/formatting';

const STATUS_COLOR = {
  ok: 'success',
  error: 'error',
  timeout: 'error',
  cancelled: 'default',
  pending: 'default',
} as const;

/** The newest tool calls of the workspace, each leading to its session. */
export function LatestActivity({ calls, loading }: { calls: ToolCallDto[]; loading: boolean }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 3 }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="h6" component="h2">
            Latest activity
          </Typography>
          <Link component={RouterLink} to="/activity-stream" variant="body2">
            Open activity stream
          </Link>
        </Box>
        {loading && [0, 1, 2, 3].map((i) => <Skeleton key={i} variant="text" height={40} />)}
        {!loading && calls.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
            No tool calls yet. Point an agent at a server's proxy URL and its calls appear here as they happen.
          </Typography>
        )}
        {!loading && calls.length > 0 && (
          <Box component="ul" aria-label="Latest tool calls" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {calls.map((call) => (
              <Box
                component="li"
                key={call.id}
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 1.5,
                  py: 1.25,
                  borderTop: '1px solid',
                  borderColor: 'divider',
                  '&:first-of-type': { borderTop: 0 },
                }}
              >
                <Chip
                  size="small"
                  variant="outlined"
                  color={STATUS_COLOR[call.status]}
                  label={call.status}
                  sx={{ minWidth: 64 }}
                />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Link
                    component={RouterLink}
                    to={sessionPath(call.sessionId)}
                    underline="hover"
                    // A long name wraps inside its column instead of running over the duration (phone).
                    sx={{
                      fontFamily: 'ui-monospace, monospace',
                      fontSize: 14,
                      fontWeight: 500,
                      overflowWrap: 'anywhere',
                    }}
                  >
                    {call.toolName}
                  </Link>
                  <Typography variant="caption" color="text.secondary" component="p" noWrap>
                    {call.serverName ?? 'Unknown server'}
                    {call.errorMessage ? ` · ${call.errorMessage}` : ''}
                  </Typography>
                </Box>
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
                >
                  {formatDuration(call.durationMs)}
                </Typography>
                <Typography
                  variant="caption"
                  color="text.secondary"
                  sx={{ whiteSpace: 'nowrap', minWidth: { xs: 0, sm: 90 }, textAlign: 'right' }}
                >
                  <RelativeTime value={call.startedAt} />
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
