import { persistStore, type Persistor } from 'redux-persist';
import { QUERY_PERSIST_MAX_AGE_MS } from '../../../src/contract/constants';
import { Paths } from '../../../src/contract/routes';
import type { WorkspaceDto } from '../../../src/contract/workspaces';
import { selectPersistableQueryCache } from '../../../src/client/api/queryCachePersistence';
import { setTokens } from '../../../src/client/api/tokens';
import { makeStore, type AppStore } from '../../../src/client/app/store';
import { workspacesApi } from '../../../src/client/features/workspaces/workspacesApi';
import { fakeJwt, installFakeFetch, jsonResponse, type FakeFetch } from '../helpers/fakeFetch';

const WORKSPACE: WorkspaceDto = {
  id: 'ws-1',
  name: 'Personal',
  description: '',
  workspaceType: 'personal',
  role: 'owner',
  createdAt: '2026-01-01T00:00:00.000Z',
};
const STORAGE_ITEM = 'persist:toolscope';

async function persistedStore(): Promise<{ store: AppStore; persistor: Persistor }> {
  const store = makeStore();
  let persistor!: Persistor;
  await new Promise<void>((resolve) => {
    persistor = persistStore(store, null, resolve);
  });
  return { store, persistor };
}

const selectWorkspaces = workspacesApi.endpoints.getWorkspaces.select();

let fake: FakeFetch;
beforeEach(() => {
  localStorage.clear();
  fake = installFakeFetch();
  setTokens({ accessToken: fakeJwt(3600), refreshToken: 'r' });
  fake.on(`GET ${Paths.workspaces}`, jsonResponse([WORKSPACE]));
});
afterEach(() => fake.restore());

describe('the query cache across visits', () => {
  it('comes back on the next visit without asking the server again', async () => {
    const first = await persistedStore();
    const subscription = first.store.dispatch(workspacesApi.endpoints.getWorkspaces.initiate());
    await subscription;
    await first.persistor.flush();
    subscription.unsubscribe();

    const second = await persistedStore();

    expect(selectWorkspaces(second.store.getState()).data).toEqual([WORKSPACE]);
    expect(fake.count(`GET ${Paths.workspaces}`)).toBe(1);
  });

  it('is not restored once it is older than 24 hours', async () => {
    const first = await persistedStore();
    await first.store.dispatch(workspacesApi.endpoints.getWorkspaces.initiate(undefined, { subscribe: false }));
    await first.persistor.flush();

    const realNow = Date.now;
    Date.now = () => realNow() + QUERY_PERSIST_MAX_AGE_MS + 1;
    try {
      const second = await persistedStore();
      expect(selectWorkspaces(second.store.getState()).data).toBeUndefined();
    } finally {
      Date.now = realNow;
    }
  });

  it('never stores subscriptions, mutations, or unsettled and failed queries', async () => {
    const { store, persistor } = await persistedStore();
    fake.on(`GET ${Paths.workspace('missing')}`, jsonResponse({ message: 'Workspace not found' }, 404));
    const live = store.dispatch(workspacesApi.endpoints.getWorkspaces.initiate());
    await live;
    await store.dispatch(workspacesApi.endpoints.getWorkspace.initiate('missing', { subscribe: false }));
    await persistor.flush();

    const stored = JSON.parse(localStorage.getItem(STORAGE_ITEM) ?? '{}') as Record<string, string>;
    const api = JSON.parse(stored.api) as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['mutations', 'provided', 'queries']);
    expect(Object.keys(api.queries as object)).toEqual(['getWorkspaces(undefined)']);
    expect(api.mutations).toEqual({});
    expect(stored.auth).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain('access_token');
    live.unsubscribe();
  });
});

describe('selectPersistableQueryCache', () => {
  const now = 1_800_000_000_000;
  const entry = (status: string, age: number) => ({ status, fulfilledTimeStamp: now - age });

  it('keeps fulfilled entries younger than 24 h with the tags they provide', () => {
    const kept = selectPersistableQueryCache(
      {
        queries: {
          fresh: entry('fulfilled', 1000),
          old: entry('fulfilled', QUERY_PERSIST_MAX_AGE_MS),
          pending: entry('pending', 10),
          failed: entry('rejected', 10),
        },
        provided: { tags: { Workspaces: { __internal_without_id: ['fresh', 'old'] } }, keys: { fresh: [], old: [] } },
      },
      now,
    );
    expect(Object.keys(kept.queries)).toEqual(['fresh']);
    expect(kept.provided).toEqual({ tags: { Workspaces: { __internal_without_id: ['fresh'] } }, keys: { fresh: [] } });
  });
});

describe('cache timing', () => {
  it('keeps unused data 10 minutes and refetches on mount after 5 minutes', () => {
    const config = makeStore().getState().api.config;
    expect(config.keepUnusedDataFor).toBe(600);
    expect(config.refetchOnMountOrArgChange).toBe(300);
  });
});
