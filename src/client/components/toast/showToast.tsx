import { closeSnackbar, enqueueSnackbar } from 'notistack';
import { TOAST_DURATION_MS } from '../../../contract/constants';
import { ToastCard } from './ToastCard';
import { toastRegistry } from './toastRegistry';
import type { ToastHandle, ToastId, ToastInput } from './toastTypes';

export function dismissToast(id: ToastId): void {
  closeSnackbar(id);
  toastRegistry.scheduleRemoval(id);
}

/**
 * Shows a toast in the app's toast area. Works outside React too (listeners, thunks), as long
 * as the ToastProvider is mounted. The provider shows one at a time, so a new toast replaces the
 * one on screen (SPEC §4).
 */
export function showToast(input: ToastInput): ToastHandle {
  const id = toastRegistry.nextId();
  toastRegistry.set(id, input);
  enqueueSnackbar({
    key: id,
    message: '',
    autoHideDuration: input.duration === undefined ? TOAST_DURATION_MS : input.duration,
    persist: input.duration === null,
    content: (key) => <ToastCard id={String(key)} onClose={() => dismissToast(String(key))} />,
    onClose: () => toastRegistry.scheduleRemoval(id),
  });
  return {
    id,
    update: (changes) => toastRegistry.update(id, changes),
    dismiss: () => dismissToast(id),
  };
}
