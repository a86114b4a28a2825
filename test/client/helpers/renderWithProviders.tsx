import type { ReactElement, ReactNode } from 'react';
import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, type MemoryRouterProps } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { makeStore, type AppStore, type RootState } from '../../../src/client/app/store';
import { theme } from '../../../src/client/app/theme';
import { ToastProvider } from '../../../src/client/components/toast/ToastProvider';

export interface RenderWithProvidersOptions extends Omit<RenderOptions, 'wrapper'> {
  /** Initial state for a fresh store (ignored when `store` is given). */
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** Where the MemoryRouter starts, e.g. ['/servers']. */
  initialEntries?: MemoryRouterProps['initialEntries'];
}

/**
 * Renders inside what the app provides (a fresh store, a MemoryRouter, the dark theme, the
 * notistack toast area) so components see the same context as in the browser, isolated per test.
 */
export function renderWithProviders(
  ui: ReactElement,
  {
    preloadedState,
    store = makeStore(preloadedState),
    initialEntries = ['/'],
    ...renderOptions
  }: RenderWithProvidersOptions = {},
): RenderResult & { store: AppStore } {
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <Provider store={store}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <ToastProvider>
            <MemoryRouter initialEntries={initialEntries}>{children}</MemoryRouter>
          </ToastProvider>
        </ThemeProvider>
      </Provider>
    );
  }
  return { store, ...render(ui, { wrapper: Wrapper, ...renderOptions }) };
}
