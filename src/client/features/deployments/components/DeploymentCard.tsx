import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DeploymentConfigDto } from '../../../../contract/deployments';
import { CopyButton } from '../../../components/CopyButton';
import { commandLine } from '../configForm';
import { DeploymentLogViewer } from './DeploymentLogViewer';
import { DeploymentStatusChip } from './DeploymentStatusChip';

export interface DeploymentCardActions {
  onDeploy: () => void;
  onRestart: () => void;
  onStop: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

const LIVE = new Set(['pending', 'starting', 'running', 'restarting']);

function memoryText(bytes: number | null): string | null {
  return bytes === null ? null : `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** One hosted server: its program, live status, proxy URL, the actions, and its log. */
export function DeploymentCard({
  config,
  busy,
  highlighted,
  actions,
}: {
  config: DeploymentConfigDto;
  busy: boolean;
  highlighted: boolean;
  actions: DeploymentCardActions;
}) {
  const deployment = config.latestDeployment;
  const live = deployment !== null && LIVE.has(deployment.status);
  const [showLog, setShowLog] = useState(highlighted);
  const details = deployment
    ? [
        deployment.pid !== null ? `pid ${deployment.pid}` : null,
        deployment.restarts > 0 ? `${deployment.restarts} restart${deployment.restarts === 1 ? '' : 's'}` : null,
        memoryText(deployment.memoryBytes),
        deployment.sessionProcesses > 0
          ? `${deployment.sessionProcesses} session process${deployment.sessionProcesses === 1 ? '' : 'es'}`
          : null,
        deployment.status !== 'running' && deployment.signal ? `last exit: ${deployment.signal}` : null,
        deployment.status !== 'running' && !deployment.signal && deployment.exitCode !== null
          ? `last exit code ${deployment.exitCode}`
          : null,
      ].filter(Boolean)
    : [];

  return (
    <Card
      variant="outlined"
      data-testid="deployment-card"
      sx={{ borderColor: highlighted ? 'primary.main' : undefined }}
    >
      <CardContent>
        <Stack sx={{ alignItems: 'center', flexWrap: 'wrap' }} direction="row" spacing={1.5} useFlexGap>
          <Typography variant="h6" component="h3">
            {config.name}
          </Typography>
          <DeploymentStatusChip status={deployment?.status ?? null} />
          {details.length > 0 && (
            <Typography variant="caption" color="text.secondary">
              {details.join(' · ')}
            </Typography>
          )}
        </Stack>
        {config.description && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {config.description}
          </Typography>
        )}
        <Typography
          variant="body2"
          sx={{ mt: 1, fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', wordBreak: 'break-all' }}
        >
          {commandLine(config)}
        </Typography>
        {config.proxyUrl && (
          <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
            <Typography variant="caption" color="text.secondary">
              Proxy URL
            </Typography>
            <Typography
              variant="body2"
              sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', wordBreak: 'break-all' }}
              data-testid="deployment-proxy-url"
            >
              {config.proxyUrl}
            </Typography>
            <CopyButton text={config.proxyUrl} label="Copy proxy URL" />
          </Stack>
        )}
        {deployment?.lastError && deployment.status !== 'running' && (
          <Alert
            severity={deployment.status === 'failed' || deployment.status === 'crashed' ? 'error' : 'warning'}
            sx={{ mt: 1.5 }}
          >
            {deployment.lastError}
            {deployment.lastStderr.length > 0 && (
              <Box component="pre" sx={{ m: 0, mt: 1, fontSize: 12, whiteSpace: 'pre-wrap' }}>
                {deployment.lastStderr.slice(-5).join('\n')}
              </Box>
            )}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }} useFlexGap>
          {!live && (
            <Button variant="contained" size="small" onClick={actions.onDeploy} disabled={busy}>
              {deployment ? 'Deploy again' : 'Deploy'}
            </Button>
          )}
          {live && (
            <>
              <Button size="small" variant="outlined" onClick={actions.onRestart} disabled={busy}>
                Restart
              </Button>
              <Button size="small" variant="outlined" color="error" onClick={actions.onStop} disabled={busy}>
                Stop
              </Button>
            </>
          )}
          {deployment && (
            <Button size="small" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
              {showLog ? 'Hide logs' : 'Logs'}
            </Button>
          )}
          <Button size="small" onClick={actions.onEdit} disabled={busy}>
            Edit
          </Button>
          <Button size="small" color="error" onClick={actions.onDelete} disabled={busy}>
            Delete
          </Button>
        </Stack>
        {deployment && (
          <Collapse in={showLog} unmountOnExit>
            <Box sx={{ mt: 2 }}>
              <DeploymentLogViewer key={deployment.id} deploymentId={deployment.id} />
            </Box>
          </Collapse>
        )}
      </CardContent>
    </Card>
  );
}
