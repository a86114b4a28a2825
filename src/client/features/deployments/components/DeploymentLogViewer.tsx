import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { DeploymentLogLine } from '../../../../contract/deployments';
import { errorMessage } from '../../../api/apiError';
import { useGetDeploymentLogsQuery, useLazyGetDeploymentLogsQuery } from '../deploymentsApi';
import { formatTime } from '../../../components/dates/dateDisplay';

const STREAM_COLOR: Record<DeploymentLogLine['stream'], string> = {
  stderr: 'text.primary',
  stdout: 'warning.main',
  system: 'info.main',
};

/**
 * The deployment's log: the last lines, then the live tail (appended by the live stream), and
 * earlier lines on demand. It stays at the bottom while the reader is there.
 */
export function DeploymentLogViewer({ deploymentId }: { deploymentId: string }) {
  const { data, error, isLoading } = useGetDeploymentLogsQuery({ deploymentId });
  const [loadEarlier, earlierState] = useLazyGetDeploymentLogsQuery();
  const [earlier, setEarlier] = useState<DeploymentLogLine[]>([]);
  const [moreEarlier, setMoreEarlier] = useState<boolean | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  const lines = [...earlier, ...(data?.lines ?? [])];
  const hasEarlier = moreEarlier ?? data?.hasEarlier ?? false;

  useEffect(() => {
    const element = box.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [lines.length]);

  const fetchEarlier = async () => {
    if (lines.length === 0) return;
    const page = await loadEarlier({ deploymentId, before: lines[0].seq })
      .unwrap()
      .catch(() => null);
    if (!page) return;
    setEarlier((current) => [...page.lines, ...current]);
    setMoreEarlier(page.hasEarlier);
  };

  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  return (
    <Box>
      {hasEarlier && (
        <Button size="small" onClick={() => void fetchEarlier()} disabled={earlierState.isFetching} sx={{ mb: 1 }}>
          {earlierState.isFetching ? 'Loading…' : 'Load earlier lines'}
        </Button>
      )}
      <Box
        ref={box}
        role="log"
        aria-live="polite"
        aria-label="Deployment log"
        data-testid="deployment-log"
        onScroll={(event) => {
          const element = event.currentTarget;
          atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
        }}
        sx={{
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
          fontSize: 12,
          lineHeight: 1.5,
          bgcolor: 'background.default',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          p: 1.5,
          maxHeight: 320,
          overflow: 'auto',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
      >
        {isLoading && <Typography variant="caption">Loading…</Typography>}
        {!isLoading && lines.length === 0 && (
          <Typography variant="caption" color="text.secondary">
            Nothing logged yet.
          </Typography>
        )}
        {lines.map((line) => (
          <Box key={line.seq} sx={{ color: STREAM_COLOR[line.stream] }}>
            <Box component="span" sx={{ color: 'text.secondary', mr: 1 }}>
              {formatTime(line.at)}
            </Box>
            {line.stream !== 'stderr' && (
              <Box component="span" sx={{ color: 'text.secondary', mr: 1 }}>
                [{line.stream}]
              </Box>
            )}
            {line.text}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
