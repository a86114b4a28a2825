import { useEffect, useRef } from 'react';
import { SnackbarProvider } from 'notistack';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../../../contract/constants';
import { ToastCard } from './ToastCard';
import { toastBridge } from './toastBridge';
import { toastRegistry } from './toastRegistry';

/**
 * notistack's provider, standing alone (it wraps no children): one toast visible, 5 s by
 * default, rendered into the toast area. Loaded lazily by ToastProvider.
 */
export default function ToastHost({ area }: { area: HTMLElement }) {
  const provider = useRef<SnackbarProvider>(null);

  useEffect(() => {
    const dismiss = (id: string) => {
      provider.current?.closeSnackbar(id);
      toastRegistry.scheduleRemoval(id);
    };
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
          content: (key) => <ToastCard id={String(key)} onClose={() => dismiss(String(key))} />,
          // Replaced by a newer toast (maxsnack), timed out, or closed: its record may go.
          onClose: () => toastRegistry.scheduleRemoval(id),
        });
      },
      close: dismiss,
    });
  }, []);

  return (
    <SnackbarProvider
      ref={provider}
      maxSnack={TOAST_LIMIT}
      autoHideDuration={TOAST_DURATION_MS}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      domRoot={area}
    />
  );
}
