import { useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import type { ToolCallDto } from '../../../../contract/sessions';
import { isFailedCall } from '../../../../contract/sessions';
import { ToolCallCard } from '../../../components/toolCalls/ToolCallCard';
import { formatDuration } from '../../../components/formatting';
import { describeNext, extractReasoning } from '../reasoning';

const BAR_COLOR = {
  ok: '#4fc3f7',
  error: '#f44336',
  timeout: '#e65100',
  cancelled: '#9e9e9e',
  pending: '#ffb300',
} as const;

/**
 * The session's calls in order as a waterfall: each bar starts and lasts as the call did on the
 * session's clock; beside it what the agent said about the call and what it did next.
 */
export function CallWaterfall({ calls, sessionActive = false }: { calls: ToolCallDto[]; sessionActive?: boolean }) {
  const [open, setOpen] = useState<string | null>(null);
  const start = Math.min(...calls.map((c) => Date.parse(c.startedAt)));
  const end = Math.max(...calls.map((c) => Date.parse(c.endedAt ?? c.startedAt) || Date.parse(c.startedAt)));
  const span = Math.max(1, end - start);
  return (
    <Box component="ol" aria-label="Tool call chain" sx={{ p: 0, m: 0 }}>
      {calls.map((call, index) => {
        const reasoning = extractReasoning(call);
        const left = ((Date.parse(call.startedAt) - start) / span) * 100;
        const width = Math.max(0.6, ((call.durationMs ?? 0) / span) * 100);
        const failed = isFailedCall(call.status);
        return (
          <Box
            component="li"
            key={call.id}
            aria-label={`Call ${index + 1}: ${call.toolName}`}
            sx={{ listStyle: 'none', borderBottom: '1px solid', borderColor: 'divider', py: 1 }}
          >
            <Box
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', md: 'minmax(180px, 1fr) 2fr minmax(220px, 1.4fr)' },
                gap: 2,
                alignItems: 'start',
              }}
            >
              <ButtonBase
                onClick={() => setOpen(open === call.id ? null : call.id)}
                aria-expanded={open === call.id}
                sx={{ justifyContent: 'flex-start', textAlign: 'left', borderRadius: 1, p: 0.5 }}
              >
                <Box>
                  <Typography variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
                    {`${index + 1}. ${call.toolName}`}
                  </Typography>
                  <Typography variant="caption" color={failed ? 'error.main' : 'text.secondary'}>
                    {`${call.status} · ${formatDuration(call.durationMs)} · +${((Date.parse(call.startedAt) - start) / 1000).toFixed(2)} s`}
                  </Typography>
                </Box>
              </ButtonBase>
              <Box
                sx={{ position: 'relative', height: 18, mt: 0.75, bgcolor: 'action.hover', borderRadius: 1 }}
                aria-hidden
              >
                <Box
                  sx={{
                    position: 'absolute',
                    left: `${Math.min(left, 99.4)}%`,
                    width: `${Math.min(width, 100 - left)}%`,
                    minWidth: 4,
                    top: 2,
                    bottom: 2,
                    borderRadius: 0.5,
                    bgcolor: BAR_COLOR[call.status],
                  }}
                />
              </Box>
              <Box sx={{ minWidth: 0 }}>
                {reasoning.texts.map((text) => (
                  <Typography
                    key={`${text.source}:${text.key}`}
                    variant="body2"
                    sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', mb: 0.5 }}
                  >
                    <Box
                      component="span"
                      sx={{ color: 'text.secondary', fontSize: 12, mr: 0.5 }}
                    >{`${text.source === 'meta' ? '_meta' : 'argument'} ${text.key}:`}</Box>
                    {text.text}
                  </Typography>
                ))}
                {reasoning.trace && (
                  <Chip
                    size="small"
                    variant="outlined"
                    label={`trace ${reasoning.trace.traceId.slice(0, 8)}… span ${reasoning.trace.parentSpanId.slice(0, 8)}…`}
                    title={`trace ${reasoning.trace.traceId}, parent span ${reasoning.trace.parentSpanId}`}
                    sx={{ mb: 0.5 }}
                  />
                )}
                {reasoning.texts.length === 0 && !reasoning.trace && (
                  <Typography variant="caption" color="text.secondary" component="p">
                    No reasoning attached.
                  </Typography>
                )}
                <Typography variant="caption" color={failed ? 'warning.main' : 'text.secondary'} component="p">
                  {describeNext(call, calls[index + 1], sessionActive)}
                </Typography>
              </Box>
            </Box>
            <Collapse in={open === call.id} unmountOnExit>
              <Box sx={{ mt: 1 }}>
                <ToolCallCard call={call} />
              </Box>
            </Collapse>
          </Box>
        );
      })}
    </Box>
  );
}
