import { createActor, fromPromise } from 'xstate';
import type { AppDispatch } from '../../app/rootState';
import type { ToastInput } from '../../components/toast/toastTypes';
import { schemaDiscoveryMachine, schemasDiscoveredText, type SchemaDiscoveryInput } from './schemaDiscoveryMachine';
import { serversApi, upsertCachedServer } from './serversApi';

/**
 * Polls a newly added server until its schemas are discovered (schemaDiscoveryMachine), then
 * announces them. It runs outside any component so leaving the servers page does not cut it
 * short; it ends by itself after at most 10 polls. Each poll also refreshes the cached server.
 */
export function startSchemaDiscovery(
  input: SchemaDiscoveryInput,
  deps: { dispatch: AppDispatch; toast: (t: ToastInput) => unknown },
) {
  const logic = schemaDiscoveryMachine.provide({
    actors: {
      fetchSchemaCount: fromPromise<number, SchemaDiscoveryInput>(async ({ input: ref }) => {
        const server = await deps
          .dispatch(serversApi.endpoints.getServer.initiate(ref, { forceRefetch: true, subscribe: false }))
          .unwrap();
        if (server.schemaCount > 0) deps.dispatch(upsertCachedServer(server));
        return server.schemaCount;
      }),
    },
    actions: {
      announceDiscovered: (_, { schemaCount }) => {
        deps.toast(schemasDiscoveredText(schemaCount));
      },
    },
  });
  const actor = createActor(logic, { input });
  actor.start();
  return actor;
}
