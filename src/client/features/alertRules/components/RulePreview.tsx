import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { CreateAlertRuleBody } from '../../../../contract/alertRules';
import { errorMessage } from '../../../api/apiError';
import { usePreviewAlertRuleMutation } from '../alertRulesApi';

/** "Would have fired N times in the last 7 days": the rule replayed over the rollups. */
export function RulePreview({ workspaceId, body }: { workspaceId: string; body: CreateAlertRuleBody }) {
  const [preview, { data, error, isLoading, reset }] = usePreviewAlertRuleMutation();
  return (
    <Box aria-label="Preview" component="section" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Button
          size="small"
          variant="outlined"
          disabled={isLoading}
          onClick={() => {
            reset();
            void preview({ workspaceId, body });
          }}
        >
          {isLoading ? 'Replaying…' : 'Preview last 7 days'}
        </Button>
      </Box>
      {error && <Alert severity="error">{errorMessage(error)}</Alert>}
      {data && (
        <Alert severity={data.firings > 0 ? 'warning' : 'success'} variant="outlined">
          <Typography variant="body2">
            Would have fired {data.firings} {data.firings === 1 ? 'time' : 'times'} in the last 7 days (
            {data.evaluations.toLocaleString()} evaluations).
          </Typography>
          {data.episodes.slice(-5).map((episode) => (
            <Typography key={episode.firedAt} variant="caption" component="div" color="text.secondary">
              {new Date(episode.firedAt).toLocaleString()} →{' '}
              {episode.resolvedAt ? new Date(episode.resolvedAt).toLocaleString() : 'still firing'}
            </Typography>
          ))}
        </Alert>
      )}
    </Box>
  );
}
