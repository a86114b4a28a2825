export { ToastProvider, TOAST_AREA_LABEL } from './ToastProvider';
export { useToast } from './useToast';
export { showToast, dismissToast } from './showToast';
export { toastBridge } from './toastBridge';
export type { ToastHandle, ToastInput, ToastVariant } from './toastTypes';
