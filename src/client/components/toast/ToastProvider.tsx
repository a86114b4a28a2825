import { useEffect, useState, type ReactNode } from 'react';
import { SnackbarProvider } from 'notistack';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../../../contract/constants';

export const TOAST_AREA_LABEL = 'Notifications (F8)';
export const TOAST_FOCUS_KEY = 'F8';

/**
 * The toast area (SPEC §2 Shell): notistack with one toast visible and 5 s by default. The
 * toasts render inside a labelled region that F8 focuses, so keyboard and screen-reader users
 * can reach a toast's action or close button without hunting for it.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [area, setArea] = useState<HTMLDivElement | null>(null);

  useEffect(() => {
    if (!area) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== TOAST_FOCUS_KEY) return;
      event.preventDefault();
      area.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [area]);

  return (
    <>
      <SnackbarProvider
        maxSnack={TOAST_LIMIT}
        autoHideDuration={TOAST_DURATION_MS}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        domRoot={area ?? undefined}
      >
        {children}
      </SnackbarProvider>
      <div ref={setArea} role="region" aria-label={TOAST_AREA_LABEL} tabIndex={-1} style={{ outline: 'none' }} />
    </>
  );
}
