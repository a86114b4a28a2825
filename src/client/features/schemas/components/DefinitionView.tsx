import Box from '@mui/material/Box';
import { CodeFrame, MONOSPACE_FONT } from '../../../components/CodeFrame';

const TOP_LEVEL_KEY = /^ {2}"((?:[^"\\]|\\.)*)":/;

/**
 * A definition as pretty JSON. Upstream text is untrusted: it is rendered as React text (never
 * as HTML). Lines of the top-level fields in `highlight` are marked, so a drift is easy to spot.
 */
export function DefinitionView({ definition, highlight = [] }: { definition: unknown; highlight?: string[] }) {
  const text = (JSON.stringify(definition, null, 2) as string | undefined) ?? '';
  const marked = new Set(highlight);
  const lines: { line: string; changed: boolean }[] = [];
  let currentKey: string | null = null;
  for (const line of text.split('\n')) {
    const match = TOP_LEVEL_KEY.exec(line);
    if (match) currentKey = JSON.parse(`"${match[1]}"`) as string;
    else if (line === '}' || line === '{') currentKey = null;
    lines.push({ line, changed: currentKey !== null && marked.has(currentKey) });
  }
  return (
    <CodeFrame copyText={text} copyLabel="Copy definition">
      <Box
        component="pre"
        aria-label="Definition"
        // A scrollable region must take keyboard focus, or a keyboard user cannot scroll it (WCAG 2.1.1).
        tabIndex={0}
        sx={{
          m: 0,
          py: 1.5,
          maxHeight: 420,
          overflow: 'auto',
          colorScheme: 'dark',
          fontFamily: MONOSPACE_FONT,
          fontSize: 12.5,
          lineHeight: 1.55,
        }}
      >
        {lines.map(({ line, changed }, index) => (
          <Box
            component="span"
            key={index}
            data-changed={changed || undefined}
            sx={{
              display: 'block',
              px: 2,
              pr: 6,
              bgcolor: changed ? 'rgba(255, 183, 77, 0.14)' : 'transparent',
              borderLeft: '3px solid',
              borderColor: changed ? 'warning.main' : 'transparent',
            }}
          >
            {line || ' '}
          </Box>
        ))}
      </Box>
    </CodeFrame>
  );
}
