import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import { CopyButton } from './CopyButton';

/** The font stack of code blocks. */
export const MONOSPACE_FONT = 'ui-monospace, SFMono-Regular, Menlo, monospace';

/** The dark, bordered frame of a code block, with a copy button in its top-right corner; a string child is set as a wrapped command line. */
export function CodeFrame({
  copyText,
  copyLabel,
  children,
}: {
  copyText: string;
  copyLabel: string;
  children: ReactNode;
}) {
  return (
    <Box
      sx={{ position: 'relative', border: '1px solid', borderColor: 'divider', borderRadius: 2, bgcolor: '#0d131b' }}
    >
      <Box sx={{ position: 'absolute', top: 4, right: 4 }}>
        <CopyButton text={copyText} label={copyLabel} />
      </Box>
      {typeof children === 'string' ? (
        // A bare command line: padded clear of the copy button, wrapped inside the rounded frame
        // (a long npx line ran past its edge on a phone, issue 38).
        <Box
          component="code"
          sx={{
            display: 'block',
            p: 1.5,
            pr: 6,
            fontFamily: MONOSPACE_FONT,
            fontSize: 13,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {children}
        </Box>
      ) : (
        children
      )}
    </Box>
  );
}
