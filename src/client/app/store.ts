import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { FLUSH, PAUSE, PERSIST, persistReducer, persistStore, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import storage from 'redux-persist/lib/storage';
import { apiSlice } from '../api/apiSlice';
import { PERSIST_KEY, queryCacheTransform } from '../api/queryCachePersistence';
import { registerAppListeners } from './appListeners';
import { listenerMiddleware } from './listeners';
import { persistedSliceKeys, reducers } from './reducers';
import type { RootState } from './rootState';

const rootReducer = combineReducers(reducers);
export type { RootState };
registerAppListeners();

// redux-persist's types predate RTK 2's partial preloaded state; the reducer is the same function.
const persistedRootReducer = persistReducer<RootState>(
  {
    key: PERSIST_KEY,
    version: 1,
    storage,
    whitelist: [apiSlice.reducerPath, ...persistedSliceKeys],
    transforms: [queryCacheTransform],
  },
  rootReducer,
);

/** A new store; tests make one each with the state they need (nothing is persisted unless persistStore runs). */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: persistedRootReducer,
    preloadedState: preloadedState as ReturnType<typeof persistedRootReducer> | undefined,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        // redux-persist's own actions carry functions (documented exception).
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      })
        .prepend(listenerMiddleware.middleware)
        .concat(apiSlice.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

export const store: AppStore = makeStore();
export const persistor = persistStore(store);
// Refetch on focus/reconnect where an endpoint asks for it.
setupListeners(store.dispatch);
