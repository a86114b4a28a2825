import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ServerDto } from '../../../../contract/servers';
import { useGetSchemasQuery } from '../serversApi';

const SHOWN = 3;

/**
 * The risk check's high findings on a server's card (docs/security.md): which tool, which rule,
 * the text that triggered it, and whether the change is held back from agents. Only fetched when
 * the server has any.
 */
export function ServerRiskFindings({ server }: { server: ServerDto }) {
  const { data } = useGetSchemasQuery(
    { workspaceId: server.workspaceId, serverId: server.id },
    { skip: server.riskFindingCount === 0 },
  );
  if (server.riskFindingCount === 0 || !data) return null;
  const findings = data.schemas.flatMap((schema) =>
    schema.riskFindings.filter((finding) => finding.severity === 'high').map((finding) => ({ schema, finding })),
  );
  if (findings.length === 0) return null;
  return (
    <Box component="ul" aria-label="Risk findings" sx={{ m: 0, pl: 2.5, color: 'error.light' }}>
      {findings.slice(0, SHOWN).map(({ schema, finding }, index) => (
        <Typography
          component="li"
          variant="body2"
          key={`${schema.id}-${finding.ruleId}-${index}`}
          sx={{ overflowWrap: 'anywhere' }}
        >
          <Box component="span" sx={{ fontFamily: 'ui-monospace, monospace' }}>
            {schema.name}
          </Box>
          : {finding.title} — “{finding.match}”{schema.riskHeld ? ' (change held)' : ''}
        </Typography>
      ))}
      {findings.length > SHOWN && (
        <Typography component="li" variant="body2" color="text.secondary">
          and {findings.length - SHOWN} more
        </Typography>
      )}
    </Box>
  );
}
