import { Paths } from '../../../src/contract/routes';
import { setTokens } from '../../../src/client/api/tokens';
import { makeStore } from '../../../src/client/app/store';
import { workspacesApi } from '../../../src/client/features/workspaces/workspacesApi';
import { fakeJwt, installFakeFetch, jsonResponse, type FakeFetch } from '../helpers/fakeFetch';

// The layers together, through real endpoints of the one createApi.

const LIST = `GET ${Paths.workspaces}`;
let fake: FakeFetch;
beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2026-11-21T08:00:00Z') });
  localStorage.clear();
  fake = installFakeFetch();
});
afterEach(() => {
  fake.restore();
  jest.useRealTimers();
});

it('a query that meets a failing server retries, refreshing first when the token nears expiry', async () => {
  setTokens({ accessToken: fakeJwt(60), refreshToken: 'r' });
  fake.on(`POST ${Paths.refresh}`, () => jsonResponse({ accessToken: fakeJwt(900) }));
  let answers = 0;
  fake.on(LIST, () => (++answers < 3 ? jsonResponse({ message: 'Database unavailable' }, 503) : jsonResponse([])));
  const store = makeStore();

  const pending = store.dispatch(workspacesApi.endpoints.getWorkspaces.initiate(undefined, { subscribe: false }));
  await jest.advanceTimersByTimeAsync(3000);
  const result = await pending;

  expect(result.data).toEqual([]);
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${Paths.refresh}`, LIST, LIST, LIST]);
});

it("a refused query surfaces the catalogue text as the hook's error", async () => {
  setTokens({ accessToken: fakeJwt(900), refreshToken: 'r' });
  fake.on(`GET ${Paths.workspace('nope')}`, jsonResponse({ message: 'Workspace not found', code: 'not_found' }, 404));
  const store = makeStore();

  const result = await store.dispatch(workspacesApi.endpoints.getWorkspace.initiate('nope', { subscribe: false }));

  expect(result.error).toMatchObject({ status: 404, message: 'API Error 404: Workspace not found', code: 'not_found' });
  expect(fake.requests).toHaveLength(1);
});

it('a mutation failing with a 5xx is sent again once, 1 s later', async () => {
  setTokens({ accessToken: fakeJwt(900), refreshToken: 'r' });
  fake.on(`POST ${Paths.workspaces}`, jsonResponse({ message: 'Internal error' }, 500));
  const store = makeStore();

  const pending = store.dispatch(workspacesApi.endpoints.createWorkspace.initiate('Lab'));
  await jest.advanceTimersByTimeAsync(999);
  expect(fake.requests).toHaveLength(1);
  await jest.advanceTimersByTimeAsync(1);
  expect(fake.requests).toHaveLength(2);
  const result = await pending;

  expect(result.error).toMatchObject({ message: 'API Error 500: Internal error' });
});
