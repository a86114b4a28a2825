import { Component, type ErrorInfo, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { isChunkLoadError } from './chunkLoadError';

interface Props {
  children: ReactNode;
  /** Changing this (e.g. the path) clears a caught error, so navigating away recovers. */
  resetKey?: unknown;
}
interface State {
  error: Error | null;
}

/**
 * Keeps a crashing page from taking the whole shell down. A page whose code could not be loaded
 * (a lazy chunk of an older build, or no network) gets its own message: a reload fixes it.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Page crashed', error, info.componentStack);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const unloaded = isChunkLoadError(this.state.error);
    return (
      <Box sx={{ p: 3 }} data-testid="error-boundary">
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => window.location.reload()}>
              Reload
            </Button>
          }
        >
          {unloaded ? (
            <>
              <AlertTitle>This page could not be loaded</AlertTitle>
              Toolscope may have been updated since this tab was opened, or the network dropped. Reload to get the
              current version.
            </>
          ) : (
            <>
              <AlertTitle>Something went wrong on this page</AlertTitle>
              {this.state.error.message}
            </>
          )}
        </Alert>
      </Box>
    );
  }
}
