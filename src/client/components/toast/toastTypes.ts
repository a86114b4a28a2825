import type { ReactNode } from 'react';

export type ToastVariant = 'default' | 'destructive';

/** What a caller gives to show a toast (SPEC §2 Shell, §4 Toasts). */
export interface ToastInput {
  title: ReactNode;
  description?: ReactNode;
  /** An optional action, e.g. a Retry button, rendered beside the close button. */
  action?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before it hides; defaults to 5 s. `null` keeps it until dismissed. */
  duration?: number | null;
}

export type ToastId = string;

/** A shown toast, returned so the caller can change or close it later. */
export interface ToastHandle {
  id: ToastId;
  update: (changes: Partial<ToastInput>) => void;
  dismiss: () => void;
}
