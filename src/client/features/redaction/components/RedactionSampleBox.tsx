import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { RedactionTestResult } from '../../../../contract/redaction';
import { errorMessage } from '../../../api/apiError';
import { JsonView } from '../../../components/JsonView';
import { useTestRedactionSampleMutation } from '../redactionApi';
import { bodyOf, type RedactionDraft } from '../redactionDraft';

interface Props {
  workspaceId: string;
  /** The settings on screen (saved or not): the sample is redacted with them. */
  draft: RedactionDraft;
}

/** "Test a sample": a message (or any JSON or text) as the recorder would store it under the settings on screen. */
export function RedactionSampleBox({ workspaceId, draft }: Props) {
  const [sample, setSample] = useState('');
  const [tool, setTool] = useState('');
  const [result, setResult] = useState<RedactionTestResult | null>(null);
  const [test, state] = useTestRedactionSampleMutation();
  const run = async () => {
    setResult(null);
    try {
      const body = { sample, settings: bodyOf(draft), ...(tool.trim() ? { tool: tool.trim() } : {}) };
      setResult(await test({ workspaceId, body }).unwrap());
    } catch {
      // The error is shown from the mutation's state below.
    }
  };
  return (
    <Stack spacing={1.5}>
      <TextField
        label="Sample"
        multiline
        minRows={4}
        value={sample}
        onChange={(e) => setSample(e.target.value)}
        helperText="A JSON-RPC message, any JSON (taken as a call's arguments) or plain text"
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
      />
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label="Tool (for tool-scoped paths)"
          value={tool}
          onChange={(e) => setTool(e.target.value)}
        />
        <Button variant="outlined" onClick={() => void run()} disabled={sample === '' || state.isLoading}>
          Test sample
        </Button>
      </Box>
      {state.isError && <Alert severity="error">{errorMessage(state.error)}</Alert>}
      {result && (
        <Box aria-label="What would be stored" component="section">
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            What would be stored
          </Typography>
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mb: 1 }}>
            {result.matches.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                Nothing matched: the sample would be stored as it is.
              </Typography>
            ) : (
              result.matches.map((match) => (
                <Chip key={match.rule} size="small" label={`${match.rule} × ${match.count}`} />
              ))
            )}
          </Box>
          <JsonView value={result.stored} maxHeight={360} />
        </Box>
      )}
    </Stack>
  );
}
