import { createListenerMiddleware } from '@reduxjs/toolkit';
import type { AppDispatch, RootState } from './store';

/**
 * Cross-feature reactions ("when X happens, do Y"). Features register theirs at module scope in
 * a `<feature>Listeners.ts` imported by app/reducers.ts.
 */
export const listenerMiddleware = createListenerMiddleware();

export const startAppListening = listenerMiddleware.startListening.withTypes<RootState, AppDispatch>();
export type AppStartListening = typeof startAppListening;
