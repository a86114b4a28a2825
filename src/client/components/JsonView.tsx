import Box from '@mui/material/Box';
import { CopyButton } from './CopyButton';

/** Pretty-printed JSON in a scrollable monospace block with a copy button. */
export function JsonView({ value, maxHeight = 360 }: { value: unknown; maxHeight?: number }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? 'undefined';
  return (
    <Box sx={{ position: 'relative', border: '1px solid', borderColor: 'divider', borderRadius: 2, bgcolor: '#0d131b' }}>
      <Box sx={{ position: 'absolute', top: 4, right: 4 }}>
        <CopyButton text={text} label="Copy JSON" />
      </Box>
      <Box
        component="pre"
        sx={{ m: 0, p: 2, pr: 6, maxHeight, overflow: 'auto', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13, lineHeight: 1.5 }}
      >
        {text}
      </Box>
    </Box>
  );
}
