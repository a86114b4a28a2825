import type { AppStartListening } from '../../app/listeners';
import { chooseWorkspace, readStoredDefaultWorkspaceId, saveCurrentWorkspaceId } from './workspaceSelection';
import { workspaceSelected } from './workspaceSlice';
import { workspacesApi } from './workspacesApi';

// Every time the list arrives, the selection rule runs: a workspace that disappeared (deleted,
// membership removed, another account) gives way to the default, then to the first.
export function workspaceListeners(startAppListening: AppStartListening): void {
  startAppListening({
    matcher: workspacesApi.endpoints.getWorkspaces.matchFulfilled,
    effect: (action, api) => {
      const currentId = api.getState().workspace.currentWorkspaceId;
      const chosen = chooseWorkspace(action.payload, currentId, readStoredDefaultWorkspaceId());
      const chosenId = chosen?.id ?? null;
      if (chosenId !== currentId) api.dispatch(workspaceSelected(chosenId));
      saveCurrentWorkspaceId(chosenId);
    },
  });
}
