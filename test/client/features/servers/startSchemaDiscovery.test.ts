import { Paths } from '../../../../src/contract/routes';
import { StorageKeys } from '../../../../src/contract/constants';
import { ErrorText } from '../../../../src/contract/errors';
import { makeStore } from '../../../../src/client/app/store';
import { registerServerRefusal } from '../../../../src/client/features/servers/registerServerPreconditions';
import { serversApi } from '../../../../src/client/features/servers/serversApi';
import { startSchemaDiscovery } from '../../../../src/client/features/servers/startSchemaDiscovery';
import type { ToastInput } from '../../../../src/client/components/toast/toastTypes';
import { fakeAccessToken, installFakeApi } from '../../helpers/fakeApi';
import { testServer } from '../../helpers/renderShellApp';

afterEach(() => jest.useRealTimers());

describe('schema discovery after adding a server', () => {
  it("polls the server every 3 s and announces 'Found N schema(s) for this server' once schemas appear", async () => {
    jest.useFakeTimers();
    localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
    const answers = [0, 0, 5];
    let polls = 0;
    const api = installFakeApi();
    api.on('GET', Paths.servers('ws-1'), { body: [testServer({ schemaCount: 0 })] });
    api.on('GET', Paths.server('ws-1', 'srv-1'), () => ({
      body: testServer({ schemaCount: answers[Math.min(polls++, answers.length - 1)] }),
    }));
    const store = makeStore();
    await store.dispatch(serversApi.endpoints.getServers.initiate('ws-1'));
    const toasts: ToastInput[] = [];

    const actor = startSchemaDiscovery(
      { workspaceId: 'ws-1', serverId: 'srv-1' },
      { dispatch: store.dispatch, toast: (t) => toasts.push(t) },
    );
    await jest.advanceTimersByTimeAsync(2_999);
    expect(polls).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(polls).toBe(1);
    await jest.advanceTimersByTimeAsync(6_000);
    expect(polls).toBe(3);

    expect(toasts).toEqual([{ title: 'Schemas discovered', description: 'Found 5 schema(s) for this server' }]);
    expect(actor.getSnapshot().status).toBe('done');
    // The list shows the new count without waiting for its own refresh.
    expect(serversApi.endpoints.getServers.select('ws-1')(store.getState()).data?.[0].schemaCount).toBe(5);
    api.restore();
  });

  it('refuses to register without a workspace or a token, naming what is missing', () => {
    expect(registerServerRefusal(null, 'token')).toBe(ErrorText.noWorkspace);
    expect(registerServerRefusal('ws-1', null)).toBe(ErrorText.noAuthToken);
    expect(registerServerRefusal('ws-1', 'token')).toBeNull();
  });
});
