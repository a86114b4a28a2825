import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { JsonView } from '../JsonView';

/** Beyond this many characters a payload is cut until the user asks for all of it. */
export const PAYLOAD_PREVIEW_CHARS = 4000;

interface PayloadViewProps {
  label: string;
  value: unknown;
  /** Starts expanded (e.g. an error). */
  defaultOpen?: boolean;
  /** The recorder cut this payload before storing it. */
  truncatedAtSource?: boolean;
}

/**
 * A collapsible, pretty-printed JSON payload. Everything is rendered as text (React escapes it),
 * so tool output and agent input can never become markup or run; long payloads are cut with a
 * "Show all" button.
 */
export function PayloadView({ label, value, defaultOpen = false, truncatedAtSource = false }: PayloadViewProps) {
  const [open, setOpen] = useState(defaultOpen);
  const [showAll, setShowAll] = useState(false);
  const text = typeof value === 'string' ? value : ((JSON.stringify(value, null, 2) as string | undefined) ?? 'null');
  const long = text.length > PAYLOAD_PREVIEW_CHARS;
  const shown = long && !showAll ? `${text.slice(0, PAYLOAD_PREVIEW_CHARS)}\n…` : text;
  return (
    <Box>
      <Button
        size="small"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        sx={{ px: 0.5, minWidth: 0, textTransform: 'none' }}
      >
        {open ? '▾' : '▸'} {label}
      </Button>
      <Collapse in={open} unmountOnExit>
        <JsonView value={shown} maxHeight={showAll ? 640 : 320} />
        {(long || truncatedAtSource) && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
            {long && (
              <Typography variant="caption" color="text.secondary">
                {showAll
                  ? `${text.length.toLocaleString()} characters`
                  : `Showing ${PAYLOAD_PREVIEW_CHARS.toLocaleString()} of ${text.length.toLocaleString()} characters`}
              </Typography>
            )}
            {long && (
              <Button size="small" onClick={() => setShowAll((s) => !s)}>
                {showAll ? 'Show less' : 'Show all'}
              </Button>
            )}
            {truncatedAtSource && (
              <Typography variant="caption" color="warning.main">
                Cut by the recorder: the original was larger than what Toolscope stores.
              </Typography>
            )}
          </Box>
        )}
      </Collapse>
    </Box>
  );
}
