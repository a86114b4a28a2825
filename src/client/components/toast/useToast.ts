import { dismissToast, showToast } from './showToast';

/** `const { toast, dismiss } = useToast(); toast({ title: 'Saved' })` (SPEC §2 Shell, §4 Toasts). */
export function useToast() {
  return { toast: showToast, dismiss: dismissToast };
}
