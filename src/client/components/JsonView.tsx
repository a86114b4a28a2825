import Box from '@mui/material/Box';
import { CodeFrame, MONOSPACE_FONT } from './CodeFrame';
import { RedactedText } from './RedactedText';

/**
 * Pretty-printed JSON in a scrollable monospace block with a copy button. Long lines wrap (a
 * 2,000-character error text stays inside the block, whatever the width of the page). Values the
 * recorder redacted before storage are marked.
 */
export function JsonView({ value, maxHeight = 360 }: { value: unknown; maxHeight?: number }) {
  const text =
    typeof value === 'string' ? value : ((JSON.stringify(value, null, 2) as string | undefined) ?? 'undefined');
  return (
    <CodeFrame copyText={text} copyLabel="Copy JSON">
      <Box
        component="pre"
        // A scrollable region must take keyboard focus, or a keyboard user cannot scroll it (WCAG 2.1.1).
        tabIndex={0}
        sx={{
          m: 0,
          p: 2,
          pr: 6,
          maxHeight,
          overflow: 'auto',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontFamily: MONOSPACE_FONT,
          fontSize: 13,
          lineHeight: 1.5,
        }}
      >
        <RedactedText text={text} />
      </Box>
    </CodeFrame>
  );
}
