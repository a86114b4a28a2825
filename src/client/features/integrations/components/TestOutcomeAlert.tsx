import Alert from '@mui/material/Alert';
import type { DeliveryOutcome } from '../../../../contract/integrations';

/** What a test send came back with: the receiver's status and time, or why it failed. */
export function TestOutcomeAlert({ outcome }: { outcome: DeliveryOutcome | string }) {
  if (typeof outcome === 'string') return <Alert severity="error">{outcome}</Alert>;
  const timing = `${Math.round(outcome.latencyMs)} ms`;
  if (outcome.ok) {
    return (
      <Alert severity="success">
        Test delivered{outcome.statusCode ? ` (HTTP ${outcome.statusCode}, ${timing})` : ` (${timing})`}
        {outcome.error ? `: ${outcome.error}` : ''}
      </Alert>
    );
  }
  return (
    <Alert severity="error">
      Test failed{outcome.statusCode ? ` with HTTP ${outcome.statusCode}` : ''} after {timing}:{' '}
      {outcome.error ?? 'no details'}
    </Alert>
  );
}
