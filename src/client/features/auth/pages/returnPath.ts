import type { Location } from 'react-router-dom';

export const AFTER_SIGN_IN_DEFAULT = '/dashboard';

/** Where to go after signing in: the protected page the visitor was sent away from, if any. */
export function returnPathFrom(state: unknown): string {
  const from = (state as { from?: Partial<Location> } | null)?.from;
  if (!from?.pathname || from.pathname === '/login' || from.pathname === '/register') return AFTER_SIGN_IN_DEFAULT;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
