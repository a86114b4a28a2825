import { alpha, createTheme } from '@mui/material/styles';

// SPEC §1: the interface is always dark and any theme switching has no effect. There is one
// theme object with only a dark palette (no `colorSchemes.light`), so neither a stored
// preference nor the operating system's scheme can change what is rendered.
// Text on a filled primary surface (contained buttons, avatars) is the page's near-black: white on
// this blue is 3.2:1, under WCAG's 4.5:1; near-black is 6:1 on main and 5:1 on dark (hover).
const brand = {
  main: '#5b8def',
  light: '#8fb1f5',
  dark: '#4d80e4',
  contrastText: '#0b0f14',
};
const surface = {
  background: '#0b0f14',
  paper: '#111720',
  raised: '#161d28',
  border: 'rgba(148, 163, 184, 0.14)',
};

/** The keyboard focus ring: the brand's light blue, 4.5:1 and more against every surface. */
const focusRing = `2px solid ${brand.light}`;

export const SIDEBAR_WIDTH = 260;
export const SIDEBAR_COLLAPSED_WIDTH = 72;

export const theme = createTheme({
  palette: {
    mode: 'dark',
    primary: { main: brand.main, light: brand.light, dark: brand.dark, contrastText: brand.contrastText },
    secondary: { main: '#a78bfa' },
    success: { main: '#34d399' },
    warning: { main: '#fbbf24' },
    error: { main: '#f87171' },
    info: { main: '#38bdf8' },
    background: { default: surface.background, paper: surface.paper },
    divider: surface.border,
    text: { primary: '#e6edf3', secondary: '#94a3b8' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '2.5rem', fontWeight: 700, letterSpacing: '-0.02em' },
    h2: { fontSize: '2rem', fontWeight: 700, letterSpacing: '-0.01em' },
    h3: { fontSize: '1.6rem', fontWeight: 600 },
    h4: { fontSize: '1.35rem', fontWeight: 600 },
    h5: { fontSize: '1.15rem', fontWeight: 600 },
    h6: { fontSize: '1rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
    overline: { fontWeight: 700, letterSpacing: '0.08em' },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        html: { colorScheme: 'dark' },
        body: { backgroundColor: surface.background },
        '::selection': { backgroundColor: alpha(brand.main, 0.35) },
        // Keyboard focus is always visible (WCAG 2.4.7): plain links and focusable elements the
        // browser would otherwise outline in a colour lost on the dark surface.
        ':focus-visible': { outline: focusRing, outlineOffset: 2 },
      },
    },
    MuiButtonBase: {
      // MUI turns the outline off and marks keyboard focus with a faint ripple; on this dark
      // surface that was invisible in the sidebar. Every button, list item, tab and chip gets the ring.
      styleOverrides: { root: { '&.Mui-focusVisible': { outline: focusRing, outlineOffset: -2 } } },
    },
    MuiPaper: {
      defaultProps: { elevation: 0 },
      styleOverrides: {
        root: { backgroundImage: 'none' },
        outlined: { borderColor: surface.border },
      },
    },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
      styleOverrides: { root: { backgroundColor: surface.paper, borderColor: surface.border } },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0, color: 'transparent' },
      styleOverrides: {
        root: {
          backgroundColor: alpha(surface.background, 0.85),
          backdropFilter: 'blur(8px)',
          borderBottom: `1px solid ${surface.border}`,
        },
      },
    },
    MuiDrawer: {
      styleOverrides: {
        paper: { backgroundColor: surface.paper, borderRight: `1px solid ${surface.border}` },
      },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { borderRadius: 8 } },
    },
    MuiListItemButton: {
      styleOverrides: {
        root: {
          borderRadius: 8,
          margin: '1px 8px',
          '&.Mui-selected': {
            backgroundColor: alpha(brand.main, 0.16),
            color: brand.light,
            '& .MuiListItemIcon-root': { color: brand.light },
            '&:hover': { backgroundColor: alpha(brand.main, 0.22) },
          },
        },
      },
    },
    MuiListItemIcon: { styleOverrides: { root: { minWidth: 36, color: '#94a3b8' } } },
    MuiListSubheader: {
      styleOverrides: {
        root: {
          backgroundColor: 'transparent',
          fontSize: '0.7rem',
          fontWeight: 700,
          letterSpacing: '0.08em',
          textTransform: 'uppercase',
          lineHeight: '32px',
          // 5.1:1 on the sidebar's paper (the slate it replaced was 3.8:1).
          color: '#7b8aa1',
        },
      },
    },
    MuiMenu: {
      styleOverrides: { paper: { border: `1px solid ${surface.border}`, backgroundColor: surface.raised } },
    },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiOutlinedInput: {
      styleOverrides: { root: { backgroundColor: alpha('#ffffff', 0.02) } },
    },
    MuiAlert: {
      styleOverrides: {
        // The yellow of the 'No tool servers connected' banner and every other warning.
        root: {
          variants: [
            {
              props: { variant: 'standard', severity: 'warning' },
              style: {
                backgroundColor: alpha('#fbbf24', 0.12),
                color: '#fde68a',
                border: `1px solid ${alpha('#fbbf24', 0.35)}`,
              },
            },
          ],
        },
        // MUI's own is overflow: auto — on a phone a long message became a scroll box a keyboard
        // cannot reach (axe: scrollable-region-focusable). Alerts wrap their text instead.
        message: { overflow: 'visible', overflowWrap: 'anywhere' },
      },
    },
    MuiTooltip: { defaultProps: { arrow: true } },
  },
});
