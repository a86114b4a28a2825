import { forwardRef, useRef, useSyncExternalStore, type TouchEvent } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { alpha } from '@mui/material/styles';
import { TOAST_SWIPE_THRESHOLD } from '../../../contract/constants';
import { toastRegistry } from './toastRegistry';
import type { ToastId } from './toastTypes';

interface ToastCardProps {
  id: ToastId;
  onClose: () => void;
}

/** One toast: title, description, optional action, close button; swipe right to dismiss. */
export const ToastCard = forwardRef<HTMLDivElement, ToastCardProps>(function ToastCard({ id, onClose }, ref) {
  const toast = useSyncExternalStore(
    toastRegistry.subscribe,
    () => toastRegistry.get(id),
    () => toastRegistry.get(id),
  );
  const swipeStartX = useRef<number | null>(null);

  if (!toast) return <div ref={ref} />;
  const destructive = toast.variant === 'destructive';

  // SPEC §9: swipe threshold 50 (px, horizontally, on touch screens).
  const onTouchStart = (event: TouchEvent) => {
    swipeStartX.current = event.touches.length > 0 ? event.touches[0].clientX : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = swipeStartX.current;
    swipeStartX.current = null;
    if (start === null || event.changedTouches.length === 0) return;
    if (Math.abs(event.changedTouches[0].clientX - start) >= TOAST_SWIPE_THRESHOLD) onClose();
  };

  return (
    <Box
      ref={ref}
      role={destructive ? 'alert' : 'status'}
      aria-live={destructive ? 'assertive' : 'polite'}
      data-variant={toast.variant ?? 'default'}
      onTouchStart={onTouchStart}
      onTouchEnd={onTouchEnd}
      onTouchCancel={() => (swipeStartX.current = null)}
      sx={(theme) => ({
        display: 'flex',
        alignItems: 'flex-start',
        gap: 1.5,
        width: { xs: 'calc(100vw - 32px)', sm: 380 },
        p: 2,
        pr: 1,
        borderRadius: 2,
        border: '1px solid',
        borderColor: destructive ? alpha(theme.palette.error.main, 0.6) : theme.palette.divider,
        bgcolor: destructive ? '#3b1219' : '#1a2230',
        color: destructive ? '#fecaca' : theme.palette.text.primary,
        boxShadow: '0 12px 32px rgba(0,0,0,0.45)',
        touchAction: 'pan-y',
      })}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="subtitle2" component="div" sx={{ fontWeight: 600 }}>
          {toast.title}
        </Typography>
        {toast.description !== undefined && (
          <Typography variant="body2" component="div" sx={{ opacity: 0.85, mt: 0.25, wordBreak: 'break-word' }}>
            {toast.description}
          </Typography>
        )}
      </Box>
      {toast.action !== undefined && <Box sx={{ flexShrink: 0, alignSelf: 'center' }}>{toast.action}</Box>}
      <IconButton size="small" aria-label="Close" onClick={onClose} sx={{ color: 'inherit', opacity: 0.7 }}>
        <CloseIcon fontSize="small" />
      </IconButton>
    </Box>
  );
});
