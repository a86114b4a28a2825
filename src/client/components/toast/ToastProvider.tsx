import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';

export const TOAST_AREA_LABEL = 'Notifications (F8)';
export const TOAST_FOCUS_KEY = 'F8';

// notistack (with its own CSS-in-JS) is not needed to draw the first screen: it loads just
// after, and toasts asked for in the meantime wait in toastBridge.
const ToastHost = lazy(() => import('./ToastHost'));

/**
 * The toast area (SPEC §2 Shell) beside the page: notistack with one toast visible and 5 s by
 * default. The toasts render inside a labelled region that F8 focuses, so keyboard and
 * screen-reader users can reach a toast's action or close button without hunting for it.
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
      {children}
      <div ref={setArea} role="region" aria-label={TOAST_AREA_LABEL} tabIndex={-1} style={{ outline: 'none' }} />
      {area && (
        <Suspense fallback={null}>
          <ToastHost area={area} />
        </Suspense>
      )}
    </>
  );
}
