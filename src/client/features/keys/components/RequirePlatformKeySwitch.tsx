import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../../api/apiError';
import { useSetRequirePlatformKeyMutation } from '../keysApi';

/** The workspace switch: off, proxy URLs work for whoever holds them; on, agents need a key. */
export function RequirePlatformKeySwitch({
  workspaceId,
  required,
  canManage,
}: {
  workspaceId: string;
  required: boolean;
  canManage: boolean;
}) {
  const [setRequired, state] = useSetRequirePlatformKeyMutation();
  return (
    <Box component="section" sx={{ mb: 4 }}>
      <FormControlLabel
        control={
          <Switch
            checked={required}
            disabled={!canManage || state.isLoading}
            onChange={(e) => void setRequired({ workspaceId, required: e.target.checked })}
          />
        }
        label="Require a platform key"
      />
      <Typography variant="body2" color="text.secondary">
        When on, agents without a valid key get 401 at the proxy. When off, anyone holding a proxy URL can call through
        it; a key, if sent, still attributes the calls.
      </Typography>
      {state.isError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorMessage(state.error)}
        </Alert>
      )}
    </Box>
  );
}
