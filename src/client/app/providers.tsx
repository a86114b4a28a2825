import { lazy, Suspense, type ReactNode } from 'react';
import { Provider as ReduxProvider } from 'react-redux';
import { PersistGate } from 'redux-persist/integration/react';
import { BrowserRouter } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { ToastProvider } from '../components/toast/ToastProvider';
import { persistor, store } from './store';
import { theme } from './theme';

// The token lifecycle (XState) renders nothing, so it need not delay the first screen: its code
// arrives just after the entry chunk. It reads the stored tokens when it mounts, so nothing that
// happened before is missed; until it has checked them, protected routes show a skeleton.
const TokenLifecycle = lazy(() =>
  import('../features/auth/TokenLifecycle').then((module) => ({ default: module.TokenLifecycle })),
);

/** Everything the app runs inside: store, theme (always dark), toasts, router, token lifecycle. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ReduxProvider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <ToastProvider>
            <BrowserRouter>
              <Suspense fallback={null}>
                <TokenLifecycle />
              </Suspense>
              {children}
            </BrowserRouter>
          </ToastProvider>
        </ThemeProvider>
      </PersistGate>
    </ReduxProvider>
  );
}
