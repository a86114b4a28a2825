import { TOAST_REMOVE_DELAY_MS } from '../../../contract/constants';
import type { ToastId, ToastInput } from './toastTypes';

// notistack renders a snack once and never re-renders it from new options, so the content of
// each toast lives here and the card subscribes to it: that is what makes `update` possible.
type Listener = () => void;

const toasts = new Map<ToastId, ToastInput>();
const listeners = new Set<Listener>();
const removalTimers = new Map<ToastId, ReturnType<typeof setTimeout>>();
let counter = 0;

function notify(): void {
  for (const listener of listeners) listener();
}

export const toastRegistry = {
  nextId(): ToastId {
    counter += 1;
    return `toast-${counter}`;
  },
  get(id: ToastId): ToastInput | undefined {
    return toasts.get(id);
  },
  set(id: ToastId, toast: ToastInput): void {
    toasts.set(id, toast);
    notify();
  },
  update(id: ToastId, changes: Partial<ToastInput>): void {
    const current = toasts.get(id);
    if (!current) return;
    toasts.set(id, { ...current, ...changes });
    notify();
  },
  /**
   * SPEC §4/§9: removal is scheduled after dismissal (1,000,000 ms). The card is gone from the
   * screen at once; only its record lingers so a late `update` on a dismissed toast is harmless.
   */
  scheduleRemoval(id: ToastId): void {
    if (removalTimers.has(id)) return;
    const timer = setTimeout(() => {
      removalTimers.delete(id);
      toasts.delete(id);
      notify();
    }, TOAST_REMOVE_DELAY_MS);
    removalTimers.set(id, timer);
  },
  // An arrow, not a method: useSyncExternalStore receives it on its own.
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Forgets every toast and pending removal (tests and sign-out). */
  reset(): void {
    for (const timer of removalTimers.values()) clearTimeout(timer);
    removalTimers.clear();
    toasts.clear();
    notify();
  },
};
