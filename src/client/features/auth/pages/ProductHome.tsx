import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import LinkOutlinedIcon from '@mui/icons-material/LinkOutlined';
import TimelineOutlinedIcon from '@mui/icons-material/TimelineOutlined';
import MonitorHeartOutlinedIcon from '@mui/icons-material/MonitorHeartOutlined';

const STEPS = [
  {
    icon: <LinkOutlinedIcon />,
    title: 'Connect your tool servers',
    text: 'Register the MCP servers your agents already use. Each one gets its own proxy URL.',
  },
  {
    icon: <TimelineOutlinedIcon />,
    title: 'Point agents at the proxy',
    text: 'Swap the server URL for the proxy URL. No SDK and no code change in the agent.',
  },
  {
    icon: <MonitorHeartOutlinedIcon />,
    title: 'Watch every call live',
    text: 'Sessions, tool calls, latency, errors and cost are recorded and shown as they happen.',
  },
];

/** The public product page shared by the landing (/) and /home. */
export function ProductHome({ signedIn }: { signedIn: boolean }) {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', background: 'radial-gradient(ellipse at top, rgba(91,141,239,0.18), transparent 55%)' }}
    >
      <Container maxWidth="lg" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 3 }}>
        <HubOutlinedIcon color="primary" />
        <Typography variant="h6" component="span" sx={{ fontWeight: 700, flex: 1 }}>
          Toolscope
        </Typography>
        {signedIn ? (
          <Button component={RouterLink} to="/dashboard" variant="contained">
            Open dashboard
          </Button>
        ) : (
          <>
            <Button component={RouterLink} to="/login" color="inherit">
              Sign in
            </Button>
            <Button component={RouterLink} to="/register" variant="contained">
              Get started
            </Button>
          </>
        )}
      </Container>
      <Container maxWidth="md" sx={{ textAlign: 'center', pt: { xs: 6, md: 12 }, pb: 8 }}>
        <Typography variant="h1" component="h1" sx={{ fontSize: { xs: '2rem', md: '3rem' }, mb: 2 }}>
          See everything your AI agents do with their tools
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary" sx={{ fontWeight: 400, mb: 4 }}>
          Toolscope traces and monitors the traffic between your agents and their tool servers, with nothing to install
          in the agent.
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center', flexWrap: 'wrap' }}>
          {signedIn ? (
            <Button component={RouterLink} to="/dashboard" variant="contained" size="large">
              Open dashboard
            </Button>
          ) : (
            <>
              <Button component={RouterLink} to="/register" variant="contained" size="large">
                Create a free account
              </Button>
              <Button component={RouterLink} to="/login" variant="outlined" size="large">
                Sign in
              </Button>
            </>
          )}
        </Box>
      </Container>
      <Container maxWidth="lg" sx={{ pb: 10 }}>
        <Box
          component="ol"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' },
          }}
        >
          {STEPS.map((step) => (
            <Card component="li" key={step.title}>
              <CardContent sx={{ p: 3 }}>
                <Box sx={{ color: 'primary.light', mb: 1.5 }}>{step.icon}</Box>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  {step.title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {step.text}
                </Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
