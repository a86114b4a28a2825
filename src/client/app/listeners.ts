import { createListenerMiddleware } from '@reduxjs/toolkit';
import type { AppDispatch, RootState } from './rootState';

/**
 * Cross-feature reactions ("when X happens, do Y"). A feature exports a `<feature>Listeners`
 * function that registers its reactions; app/appListeners.ts calls each of them once. Components
 * that react only while mounted call `startAppListening` themselves and stop on unmount.
 */
export const listenerMiddleware = createListenerMiddleware();

export const startAppListening = listenerMiddleware.startListening.withTypes<RootState, AppDispatch>();
export type AppStartListening = typeof startAppListening;
