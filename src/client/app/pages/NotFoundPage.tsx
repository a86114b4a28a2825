import { Link as RouterLink, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import TravelExploreOutlinedIcon from '@mui/icons-material/TravelExploreOutlined';

/** Any path that is not a route of SPEC §2. */
export default function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 2,
        px: 3,
      }}
    >
      <TravelExploreOutlinedIcon color="primary" sx={{ fontSize: 56 }} />
      <Typography variant="overline" color="text.secondary">
        Error 404
      </Typography>
      <Typography variant="h3" component="h1">
        Page not found
      </Typography>
      {/* Only the path may break anywhere (it can be one long word); the sentence wraps at spaces. */}
      <Typography color="text.secondary" sx={{ maxWidth: 480 }}>
        There is no page at{' '}
        <Box component="code" sx={{ overflowWrap: 'anywhere' }}>
          {pathname}
        </Box>
        . It may have moved, or the link may be mistyped.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, mt: 1 }}>
        <Button component={RouterLink} to="/dashboard" variant="contained">
          Go to the dashboard
        </Button>
        <Button component={RouterLink} to="/" variant="outlined">
          Home
        </Button>
      </Box>
    </Box>
  );
}
