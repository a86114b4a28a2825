import type { ToastId } from './toastTypes';

/** What the mounted toast area can do; the lazily loaded ToastHost provides it. */
export interface ToastHostControls {
  show: (id: ToastId, duration: number | null) => void;
  close: (id: ToastId) => void;
}

// notistack is loaded after the first screen (it is not needed to draw it), so toasts asked
// for before the toast area is up wait here and are shown, in order, as soon as it connects.
let host: ToastHostControls | null = null;
let pending: { id: ToastId; duration: number | null }[] = [];
let readyWaiters: (() => void)[] = [];

export const toastBridge = {
  connect(controls: ToastHostControls): () => void {
    host = controls;
    const queued = pending;
    pending = [];
    for (const toast of queued) controls.show(toast.id, toast.duration);
    const waiters = readyWaiters;
    readyWaiters = [];
    for (const resolve of waiters) resolve();
    return () => {
      if (host === controls) host = null;
    };
  },
  show(id: ToastId, duration: number | null): void {
    if (host) host.show(id, duration);
    else pending.push({ id, duration });
  },
  close(id: ToastId): void {
    const queuedIndex = pending.findIndex((toast) => toast.id === id);
    if (queuedIndex >= 0) pending.splice(queuedIndex, 1);
    else host?.close(id);
  },
  /** Resolves once a toast area is mounted and showing toasts (tests, and code that must know). */
  whenReady(): Promise<void> {
    return host ? Promise.resolve() : new Promise((resolve) => readyWaiters.push(resolve));
  },
};
