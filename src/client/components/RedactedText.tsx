import { Fragment } from 'react';
import Box from '@mui/material/Box';
import { REDACTED_PLACEHOLDER } from '../../contract/redaction';

const SPLIT = new RegExp(`(${REDACTED_PLACEHOLDER.source})`);

/**
 * Text with the recorder's redaction placeholders (`[REDACTED:github-pat]`) marked: a value that
 * was replaced before storage (docs/security.md) reads as such, not as what the agent sent.
 */
export function RedactedText({ text }: { text: string }) {
  if (!text.includes('[REDACTED:')) return <>{text}</>;
  const parts = text.split(SPLIT);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Box
            key={i}
            component="mark"
            title="Redacted before storage: the original was never stored"
            data-redacted="true"
            sx={{
              px: 0.5,
              borderRadius: 0.5,
              bgcolor: 'warning.light',
              color: 'warning.contrastText',
              fontWeight: 600,
            }}
          >
            {part}
          </Box>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
