import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

/**
 * The box every table sits in: on a phone a table wider than its card scrolls sideways inside it
 * instead of being cut off (a card clips what overflows it) or widening the page (issue 38).
 * Focusable and named, so a keyboard can scroll it too (axe: scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      role="region"
      aria-label={label}
      tabIndex={0}
      sx={{
        overflowX: 'auto',
        maxWidth: '100%',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
      }}
    >
      {children}
    </Box>
  );
}
