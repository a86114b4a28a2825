import { useId } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { CodeFrame, MONOSPACE_FONT } from '../../../components/CodeFrame';

/**
 * The one time a platform key's secret is shown: Toolscope keeps only its hash, so once this
 * dialog closes nobody can see it again (the parent forgets it).
 */
export function RevealSecretDialog({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const titleId = useId();
  return (
    <Dialog open aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Copy the key for {name}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          This is the only time the key is shown. Copy it now and keep it in your agent’s secret store.
        </Alert>
        <CodeFrame copyText={secret} copyLabel="Copy platform key">
          <Box
            component="pre"
            aria-label="New platform key"
            sx={{
              m: 0,
              p: 1.5,
              pr: 6,
              fontFamily: MONOSPACE_FONT,
              fontSize: 13,
              wordBreak: 'break-all',
              whiteSpace: 'pre-wrap',
            }}
          >
            {secret}
          </Box>
        </CodeFrame>
        <Box component="p" sx={{ color: 'text.secondary', fontSize: 13, mb: 0 }}>
          Agents send it as <code>Authorization: Bearer …</code> or, when their Authorization header is taken, as{' '}
          <code>X-Toolscope-Key</code>.
        </Box>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onDone}>
          I have copied it
        </Button>
      </DialogActions>
    </Dialog>
  );
}
