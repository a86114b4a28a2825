import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { DiffLine } from '../schemaDiff';

const LOOK: Record<DiffLine['change'], { sign: string; color: string }> = {
  added: { sign: '+', color: 'success.light' },
  removed: { sign: '−', color: 'error.light' },
  changed: { sign: '~', color: 'warning.light' },
  moved: { sign: '→', color: 'info.light' },
  copied: { sign: '⧉', color: 'info.light' },
  tested: { sign: '=', color: 'text.secondary' },
};

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12.5 };

/** A patch as readable lines: "~ description: "old" → "new"". */
export function PatchDiff({ lines }: { lines: DiffLine[] }) {
  if (lines.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        First version: nothing to compare with.
      </Typography>
    );
  }
  return (
    <Box
      component="ul"
      aria-label="Changes"
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.75 }}
    >
      {lines.map((line, index) => {
        const look = LOOK[line.change];
        return (
          <Box component="li" key={index} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', ...mono }}>
            <Box component="span" aria-hidden sx={{ color: look.color, fontWeight: 700, width: 12, flexShrink: 0 }}>
              {look.sign}
            </Box>
            <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              <Box component="span" sx={{ color: look.color }}>
                {line.field}
              </Box>{' '}
              <Box component="span" sx={{ color: 'text.secondary' }}>
                {line.change}
              </Box>
              {line.change === 'changed' && (
                <>
                  {': '}
                  <Box component="del" sx={{ color: 'error.light', textDecorationColor: 'rgba(255,255,255,0.4)' }}>
                    {line.before}
                  </Box>
                  {' → '}
                  <Box component="ins" sx={{ color: 'success.light', textDecoration: 'none' }}>
                    {line.after}
                  </Box>
                </>
              )}
              {line.change === 'added' && (
                <>
                  :{' '}
                  <Box component="ins" sx={{ color: 'success.light', textDecoration: 'none' }}>
                    {line.after}
                  </Box>
                </>
              )}
              {line.change === 'removed' && (
                <>
                  :{' '}
                  <Box component="del" sx={{ color: 'error.light' }}>
                    {line.before}
                  </Box>
                </>
              )}
              {(line.change === 'moved' || line.change === 'copied') && <> from {line.before}</>}
              {line.change === 'tested' && <> equals {line.after}</>}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
