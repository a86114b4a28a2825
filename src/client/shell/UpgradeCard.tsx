import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import RocketLaunchOutlinedIcon from '@mui/icons-material/RocketLaunchOutlined';
import { useAppDispatch } from '../app/hooks';
import { openDialog } from '../app/dialogsSlice';

/** SPEC §2: the 'Upgrade to Pro' card; 'Upgrade Now' opens the plan upgrade dialog. */
export function UpgradeCard() {
  const dispatch = useAppDispatch();
  return (
    <Box
      component="section"
      aria-label="Upgrade to Pro"
      sx={(theme) => ({
        mx: 1.5,
        mb: 1.5,
        p: 2,
        borderRadius: 2,
        border: `1px solid ${alpha(theme.palette.primary.main, 0.35)}`,
        background: `linear-gradient(135deg, ${alpha(theme.palette.primary.main, 0.22)}, ${alpha(theme.palette.secondary.main, 0.14)})`,
      })}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
        <RocketLaunchOutlinedIcon fontSize="small" color="primary" />
        <Typography variant="subtitle2" component="h2">
          Upgrade to Pro
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        100,000 agent calls a month and up to 5 workspaces.
      </Typography>
      <Button variant="contained" size="small" fullWidth onClick={() => dispatch(openDialog('upgrade'))}>
        Upgrade Now
      </Button>
    </Box>
  );
}
