import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { SchemaDto } from '../../../../contract/schemas';

/**
 * What the risk check found in the current definition (docs/security.md): each finding named,
 * where it is, and the text that triggered it. A held change says agents still get the pin.
 */
export function RiskFindings({ schema }: { schema: SchemaDto }) {
  const findings = schema.riskFindings;
  if (findings.length === 0) return null;
  const high = findings.some((f) => f.severity === 'high');
  return (
    <Alert
      severity={high ? 'error' : 'info'}
      variant="outlined"
      role="region"
      aria-label="Risk check"
      sx={{ '& .MuiAlert-message': { width: '100%', minWidth: 0 } }}
    >
      <AlertTitle>
        Risk check: {findings.length} {findings.length === 1 ? 'finding' : 'findings'}
        {schema.pinnedVersion === null ? '' : ` in v${schema.currentVersion}`}
      </AlertTitle>
      {schema.riskHeld && schema.pinnedVersion !== null && (
        <Typography variant="body2" sx={{ mb: 1 }}>
          This change added high-risk text, so it is held: agents keep being served v{schema.pinnedVersion}. Accept v
          {schema.currentVersion} only if you trust it.
        </Typography>
      )}
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 1 }}>
        {findings.map((finding, index) => (
          <Box component="li" key={`${finding.ruleId}-${finding.path}-${index}`} sx={{ minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Chip
                size="small"
                color={finding.severity === 'high' ? 'error' : 'default'}
                label={finding.severity === 'high' ? 'High' : 'Low'}
              />
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {finding.title}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'ui-monospace, monospace' }}>
                {finding.path}
              </Typography>
            </Box>
            <Typography
              variant="body2"
              component="code"
              sx={{ display: 'block', mt: 0.5, fontFamily: 'ui-monospace, monospace', overflowWrap: 'anywhere' }}
            >
              {finding.excerpt}
            </Typography>
          </Box>
        ))}
      </Box>
    </Alert>
  );
}
