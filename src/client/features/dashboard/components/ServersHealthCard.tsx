import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ServerDto } from '../../../../contract/servers';
import { ServerStatusChip } from '../../../components/servers/ServerStatusChip';

/** Online versus offline across the workspace, with each server's status. */
export function ServersHealthCard({
  online,
  total,
  servers,
  loading,
}: {
  online: number;
  total: number;
  servers: ServerDto[];
  loading: boolean;
}) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 3, height: '100%' }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="h6" component="h2">
            Tool servers
          </Typography>
          <Link component={RouterLink} to="/servers" variant="body2">
            Manage
          </Link>
        </Box>
        {loading ? (
          <Skeleton variant="rounded" height={120} />
        ) : (
          <>
            <Typography variant="body2" color="text.secondary">
              {online} of {total} online
            </Typography>
            <LinearProgress
              variant="determinate"
              value={total === 0 ? 0 : (online / total) * 100}
              // Red when none is online (the "0 of 1 online" read as a mere warning).
              color={online === total ? 'success' : online === 0 ? 'error' : 'warning'}
              aria-label="Servers online"
              sx={{ my: 1.5, height: 6, borderRadius: 3 }}
            />
            <Box
              component="ul"
              sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1.25 }}
            >
              {servers.slice(0, 6).map((server) => (
                <Box
                  component="li"
                  key={server.id}
                  sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
                >
                  <Typography variant="body2" noWrap sx={{ fontWeight: 500 }}>
                    {server.name}
                  </Typography>
                  <ServerStatusChip server={server} />
                </Box>
              ))}
            </Box>
          </>
        )}
      </CardContent>
    </Card>
  );
}
