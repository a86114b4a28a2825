import type { UnknownAction } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';

/** The BaseQueryApi RTK Query hands a base query, with the dispatched actions recorded. */
export function fakeBaseQueryApi(type: 'query' | 'mutation' = 'query') {
  const dispatched: UnknownAction[] = [];
  const controller = new AbortController();
  const api = {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispatch: (action: UnknownAction) => {
      dispatched.push(action);
      return action;
    },
    getState: () => ({}),
    extra: undefined,
    endpoint: 'testEndpoint',
    type,
  } as unknown as BaseQueryApi;
  return { api, dispatched, controller };
}
