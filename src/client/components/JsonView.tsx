import Box from '@mui/material/Box';
import { CodeFrame, MONOSPACE_FONT } from './CodeFrame';

/** Pretty-printed JSON in a scrollable monospace block with a copy button. */
export function JsonView({ value, maxHeight = 360 }: { value: unknown; maxHeight?: number }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? 'undefined';
  return (
    <CodeFrame copyText={text} copyLabel="Copy JSON">
      <Box component="pre" sx={{ m: 0, p: 2, pr: 6, maxHeight, overflow: 'auto', fontFamily: MONOSPACE_FONT, fontSize: 13, lineHeight: 1.5 }}>
        {text}
      </Box>
    </CodeFrame>
  );
}
