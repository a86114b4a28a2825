import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';

/** The centred card every sign-in screen sits in. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 6,
        background: 'radial-gradient(ellipse at top, rgba(91,141,239,0.16), transparent 60%)',
      }}
    >
      <Link
        component={RouterLink}
        to="/"
        underline="none"
        color="inherit"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 3 }}
      >
        <HubOutlinedIcon color="primary" />
        <Typography variant="h6" component="span" sx={{ fontWeight: 700 }}>
          Toolscope
        </Typography>
      </Link>
      <Card sx={{ width: '100%', maxWidth: 440 }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Typography variant="h5" component="h1" sx={{ mb: subtitle ? 0.5 : 3 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
        </CardContent>
      </Card>
      {footer && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
          {footer}
        </Typography>
      )}
    </Box>
  );
}
