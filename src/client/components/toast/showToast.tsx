import { TOAST_DURATION_MS } from '../../../contract/constants';
import { toastBridge } from './toastBridge';
import { toastRegistry } from './toastRegistry';
import type { ToastHandle, ToastId, ToastInput } from './toastTypes';

export function dismissToast(id: ToastId): void {
  toastBridge.close(id);
  toastRegistry.scheduleRemoval(id);
}

/**
 * Shows a toast in the app's toast area. Works outside React too (listeners, thunks), as long
 * as the ToastProvider is mounted. The area shows one at a time, so a new toast replaces the
 * one on screen (SPEC §4).
 */
export function showToast(input: ToastInput): ToastHandle {
  const id = toastRegistry.nextId();
  toastRegistry.set(id, input);
  toastBridge.show(id, input.duration === undefined ? TOAST_DURATION_MS : input.duration);
  return {
    id,
    update: (changes) => toastRegistry.update(id, changes),
    dismiss: () => dismissToast(id),
  };
}
