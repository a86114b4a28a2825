import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { CostBreakdown } from '../../../../contract/analytics';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { formatCount, formatUsd } from '../../../components/analytics/format';

const SHOWN = 6;

/** The agents (clientInfo names) with the most calls; a name filters the screen to that client. */
export function TopClients({
  clients,
  onClient,
}: {
  clients: CostBreakdown[] | undefined;
  onClient: (client: string) => void;
}) {
  const shown = [...(clients ?? [])]
    .filter((client) => client.calls > 0)
    .sort((a, b) => b.calls - a.calls)
    .slice(0, SHOWN);
  const most = shown[0]?.calls ?? 1;
  return (
    <ChartCard title="Top clients" subtitle="Agents by calls (clientInfo name)" loading={!clients} height={240}>
      {shown.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No client called a tool in this range.
        </Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }} aria-label="Top clients">
          {shown.map((client) => (
            <Box component="li" key={client.id}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                {client.id ? (
                  <Link component="button" variant="body2" onClick={() => onClient(client.id)}>
                    {client.name}
                  </Link>
                ) : (
                  <Typography variant="body2">{client.name}</Typography>
                )}
                <Typography variant="body2" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatCount(client.calls)} calls · {formatUsd(client.cost)}
                </Typography>
              </Box>
              <LinearProgress
                variant="determinate"
                aria-label={`${client.name}: calls compared with the busiest client`}
                value={(client.calls / most) * 100}
                sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
              />
            </Box>
          ))}
        </Box>
      )}
    </ChartCard>
  );
}
