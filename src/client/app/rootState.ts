import type { StateFromReducersMapObject, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { reducers } from './reducers';

// The store's types, derived from the reducers alone, so that features' listener and effect
// modules can be typed without importing the store (which imports them: a circle).
export type RootState = StateFromReducersMapObject<typeof reducers>;
/** What features dispatch with: plain actions and thunks (the store's dispatch is this and more). */
export type AppDispatch = ThunkDispatch<RootState, unknown, UnknownAction>;
