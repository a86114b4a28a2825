import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import TimelineOutlinedIcon from '@mui/icons-material/TimelineOutlined';
import type { ReactNode } from 'react';

interface OnboardingStepsProps {
  step: 'welcome' | 'connect';
  onGetStarted: () => void;
  onSkip: () => void;
  onClose: () => void;
  onLater: () => void;
  onConnect: () => void;
}

function Point({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
      <Box sx={{ color: 'primary.light', mt: 0.25 }}>{icon}</Box>
      <Box>
        <Typography variant="subtitle2">{title}</Typography>
        <Typography variant="body2" color="text.secondary">
          {text}
        </Typography>
      </Box>
    </Box>
  );
}

/** What the onboarding dialog shows at each step; the machine decides which and when. */
export function OnboardingSteps({ step, onGetStarted, onSkip, onClose, onLater, onConnect }: OnboardingStepsProps) {
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="onboarding-title">
      <Box sx={{ px: 3, pt: 3 }}>
        <Stepper activeStep={step === 'welcome' ? 0 : 1}>
          <Step>
            <StepLabel>Welcome</StepLabel>
          </Step>
          <Step>
            <StepLabel>Connect Tool Server</StepLabel>
          </Step>
        </Stepper>
      </Box>
      {step === 'welcome' ? (
        <>
          <DialogTitle id="onboarding-title">Welcome to Toolscope</DialogTitle>
          <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <Typography color="text.secondary">
              See exactly what your AI agents do with their tools — without changing a line of agent code.
            </Typography>
            <Point
              icon={<HubOutlinedIcon />}
              title="Connect once"
              text="Register a tool server and point your agent at the proxy URL Toolscope gives it."
            />
            <Point
              icon={<TimelineOutlinedIcon />}
              title="Trace everything"
              text="Every session, message and tool call is recorded and shown live."
            />
            <Point
              icon={<InsightsOutlinedIcon />}
              title="Stay ahead"
              text="Health checks, schema drift alerts, latency and error rates for each server."
            />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5, justifyContent: 'space-between' }}>
            <Link component="button" type="button" variant="body2" color="text.secondary" onClick={onSkip}>
              Skip setup
            </Link>
            <Button variant="contained" onClick={onGetStarted}>
              Get Started
            </Button>
          </DialogActions>
        </>
      ) : (
        <>
          <DialogTitle id="onboarding-title">Connect Tool Server</DialogTitle>
          <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <Point
              icon={<DnsOutlinedIcon />}
              title="Your MCP server, traced"
              text="Add the URL of a Streamable HTTP MCP server. Toolscope checks its health, discovers its tools, prompts and resources, and gives you a proxy URL with ready-made configuration for Claude, Cursor, VS Code and more."
            />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button onClick={onLater}>I'll do this later</Button>
            <Button variant="contained" onClick={onConnect}>
              Connect Tool Server
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
