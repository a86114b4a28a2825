import { forwardRef, useEffect, useRef } from 'react';
import { SnackbarProvider, useSnackbar, type CustomContentProps, type SnackbarKey } from 'notistack';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../../../contract/constants';
import { ToastCard } from './ToastCard';
import { toastBridge } from './toastBridge';
import { toastRegistry } from './toastRegistry';

/** Closes the toast on screen; its record goes a moment later (an update may still reach it). */
function dismiss(close: (key: SnackbarKey) => void, id: string): void {
  close(id);
  toastRegistry.scheduleRemoval(id);
}

/** Every snackbar of this provider is a toast: notistack draws it with our card. */
const ToastSnackbar = forwardRef<HTMLDivElement, CustomContentProps>(function ToastSnackbar({ id }, ref) {
  const { closeSnackbar } = useSnackbar();
  return <ToastCard ref={ref} id={String(id)} onClose={() => dismiss(closeSnackbar, String(id))} />;
});

/**
 * notistack's provider, standing alone (it wraps no children): one toast visible, 5 s by
 * default, rendered into the toast area. Loaded lazily by ToastProvider.
 */
export default function ToastHost({ area }: { area: HTMLElement }) {
  const provider = useRef<SnackbarProvider>(null);

  useEffect(() => {
    const close = (key: SnackbarKey) => provider.current?.closeSnackbar(key);
    return toastBridge.connect({
      show: (id, duration) => {
        // SPEC: a new toast replaces the previous one. notistack's limit keeps a persistent toast
        // on screen and queues the new one behind it (a 'Server Offline' could wait forever), so
        // whatever is shown is closed first.
        provider.current?.closeSnackbar();
        provider.current?.enqueueSnackbar({
          key: id,
          message: '',
          autoHideDuration: duration,
          persist: duration === null,
          // Replaced by a newer toast (maxsnack), timed out, or closed: its record may go.
          onClose: () => toastRegistry.scheduleRemoval(id),
        });
      },
      close: (id) => dismiss(close, id),
    });
  }, []);

  return (
    <SnackbarProvider
      ref={provider}
      maxSnack={TOAST_LIMIT}
      autoHideDuration={TOAST_DURATION_MS}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      domRoot={area}
      Components={{ default: ToastSnackbar }}
    />
  );
}
