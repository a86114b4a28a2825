import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import type { WorkspaceDto } from '../../../../src/contract/workspaces';
import { getAccessToken, setTokens } from '../../../../src/client/api/tokens';
import { makeStore } from '../../../../src/client/app/store';
import { chooseWorkspace } from '../../../../src/client/features/workspaces/workspaceSelection';
import {
  selectCurrentWorkspace,
  selectCurrentWorkspaceId,
  switchWorkspace,
} from '../../../../src/client/features/workspaces/workspaceSlice';
import { workspacesApi } from '../../../../src/client/features/workspaces/workspacesApi';
import { fakeJwt, installFakeFetch, jsonResponse, type FakeFetch } from '../../helpers/fakeFetch';

const workspace = (id: string, name = id): WorkspaceDto => ({
  id,
  name,
  description: '',
  workspaceType: 'personal',
  role: 'owner',
  createdAt: '2026-01-01T00:00:00.000Z',
});
const LIST = [workspace('ws-a', 'Personal'), workspace('ws-b', 'Team'), workspace('ws-c', 'Lab')];

let fake: FakeFetch;
/** Each test of the calling describe starts with nothing stored, signed in, and `fake` answering fetch. */
function startSignedInWithFakeFetch() {
  beforeEach(() => {
    localStorage.clear();
    fake = installFakeFetch();
    setTokens({ accessToken: fakeJwt(3600), refreshToken: 'r' });
  });
  afterEach(() => fake.restore());
}

describe('chooseWorkspace', () => {
  it('takes the current id first', () => {
    expect(chooseWorkspace(LIST, 'ws-c', 'ws-b')?.id).toBe('ws-c');
  });
  it('then the default id', () => {
    expect(chooseWorkspace(LIST, 'gone', 'ws-b')?.id).toBe('ws-b');
  });
  it('then the first in the list', () => {
    expect(chooseWorkspace(LIST, 'gone', 'also-gone')?.id).toBe('ws-a');
    expect(chooseWorkspace(LIST, null, null)?.id).toBe('ws-a');
  });
  it('gives none for an empty list', () => {
    expect(chooseWorkspace([], 'ws-a', 'ws-b')).toBeNull();
  });
});

describe('selection when the list loads', () => {
  startSignedInWithFakeFetch();

  async function loadList(answer: unknown, stored: { current?: string; default?: string } = {}) {
    if (stored.current) localStorage.setItem(StorageKeys.currentWorkspace, stored.current);
    if (stored.default) localStorage.setItem(StorageKeys.defaultWorkspace, stored.default);
    fake.on(`GET ${Paths.workspaces}`, jsonResponse(answer));
    const store = makeStore();
    await store.dispatch(workspacesApi.endpoints.getWorkspaces.initiate());
    return store;
  }

  it('keeps the stored current workspace', async () => {
    const store = await loadList(LIST, { current: 'ws-c', default: 'ws-b' });
    expect(selectCurrentWorkspaceId(store.getState())).toBe('ws-c');
    expect(selectCurrentWorkspace(store.getState())?.name).toBe('Lab');
  });

  it('falls back to the stored default and saves it as current', async () => {
    const store = await loadList(LIST, { current: 'deleted', default: 'ws-b' });
    expect(selectCurrentWorkspaceId(store.getState())).toBe('ws-b');
    expect(localStorage.getItem(StorageKeys.currentWorkspace)).toBe('ws-b');
  });

  it('falls back to the first and saves it', async () => {
    const store = await loadList(LIST);
    expect(selectCurrentWorkspaceId(store.getState())).toBe('ws-a');
    expect(localStorage.getItem(StorageKeys.currentWorkspace)).toBe('ws-a');
  });

  it('accepts the list as { workspaces }', async () => {
    const store = await loadList({ workspaces: LIST }, { current: 'ws-b' });
    expect(workspacesApi.endpoints.getWorkspaces.select()(store.getState()).data).toEqual(LIST);
    expect(selectCurrentWorkspaceId(store.getState())).toBe('ws-b');
  });

  it('selects nothing when the account has no workspace', async () => {
    const store = await loadList([], { current: 'ws-a' });
    expect(selectCurrentWorkspaceId(store.getState())).toBeNull();
    expect(localStorage.getItem(StorageKeys.currentWorkspace)).toBeNull();
  });

  it('starts from the stored current id before the list arrives', () => {
    localStorage.setItem(StorageKeys.currentWorkspace, 'ws-b');
    expect(selectCurrentWorkspaceId(makeStore().getState())).toBe('ws-b');
  });
});

describe('switchWorkspace', () => {
  startSignedInWithFakeFetch();

  it('saves the choice, then refreshes the token', async () => {
    const fresh = fakeJwt(900);
    let savedWhenRefreshing: string | null = null;
    fake.on(`POST ${Paths.refresh}`, () => {
      savedWhenRefreshing = localStorage.getItem(StorageKeys.currentWorkspace);
      return jsonResponse({ accessToken: fresh });
    });
    const store = makeStore();

    const outcome = await store.dispatch(switchWorkspace('ws-b')).unwrap();

    expect(savedWhenRefreshing).toBe('ws-b');
    expect(selectCurrentWorkspaceId(store.getState())).toBe('ws-b');
    expect(outcome).toEqual({ ok: true, accessToken: fresh });
    expect(getAccessToken()).toBe(fresh);
  });
});

describe('workspace calls', () => {
  startSignedInWithFakeFetch();

  it('creates from a plain name with an empty description and the personal type', async () => {
    fake.on(`POST ${Paths.workspaces}`, (request) =>
      jsonResponse({ ...workspace('ws-new'), ...(request.body as object) }, 201),
    );
    const store = makeStore();
    await store.dispatch(workspacesApi.endpoints.createWorkspace.initiate('  Research  '));
    expect(fake.requests[0].body).toEqual({ name: 'Research', description: '', workspaceType: 'personal' });
  });

  it('checks the creation limit for the personal type by default', async () => {
    fake.on(`GET ${Paths.canCreateWorkspace}`, jsonResponse({ canCreate: true, error: null }));
    const store = makeStore();
    const result = await store.dispatch(
      workspacesApi.endpoints.canCreateWorkspace.initiate(undefined, { subscribe: false }),
    );
    expect(result.data).toEqual({ canCreate: true, error: null });
    expect(fake.requests[0].url.searchParams.get('type')).toBe('personal');
  });
});
