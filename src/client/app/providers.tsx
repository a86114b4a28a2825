import type { ReactNode } from 'react';
import { Provider as ReduxProvider } from 'react-redux';
import { PersistGate } from 'redux-persist/integration/react';
import { BrowserRouter } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { ToastProvider } from '../components/toast/ToastProvider';
import { TokenLifecycle } from '../features/auth/TokenLifecycle';
import { persistor, store } from './store';
import { theme } from './theme';

/** Everything the app runs inside: store, theme (always dark), toasts, router, token lifecycle. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ReduxProvider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <ToastProvider>
            <BrowserRouter>
              <TokenLifecycle />
              {children}
            </BrowserRouter>
          </ToastProvider>
        </ThemeProvider>
      </PersistGate>
    </ReduxProvider>
  );
}
