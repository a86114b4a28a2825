import { createAsyncThunk, createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { WorkspaceDto } from '../../../contract/workspaces';
import { refreshAccessToken, type RefreshOutcome } from '../../api/refreshAccessToken';
import { readStoredCurrentWorkspaceId, saveCurrentWorkspaceId, saveDefaultWorkspaceId } from './workspaceSelection';
import { workspacesApi } from './workspacesApi';

export interface WorkspaceState {
  currentWorkspaceId: string | null;
}

export const workspaceSlice = createSlice({
  name: 'workspace',
  // Read synchronously at start so the first render already knows the workspace.
  initialState: (): WorkspaceState => ({ currentWorkspaceId: readStoredCurrentWorkspaceId() }),
  reducers: {
    workspaceSelected(state, action: PayloadAction<string | null>) {
      state.currentWorkspaceId = action.payload;
    },
  },
  selectors: {
    selectCurrentWorkspaceId: (state) => state.currentWorkspaceId,
  },
});

export const { workspaceSelected } = workspaceSlice.actions;
export const { selectCurrentWorkspaceId } = workspaceSlice.selectors;
export const workspaceReducer = workspaceSlice.reducer;

const selectWorkspaceList = workspacesApi.endpoints.getWorkspaces.select();

/** The current workspace from the cached list, or null while it loads or when there is none. */
export const selectCurrentWorkspace = createSelector(
  [selectWorkspaceList, (state: { workspace: WorkspaceState }) => state.workspace.currentWorkspaceId],
  (list, currentId): WorkspaceDto | null => list.data?.find((w) => w.id === currentId) ?? null,
);

/** Saves the choice, then refreshes the access token (SPEC §4). */
export const switchWorkspace = createAsyncThunk<RefreshOutcome, string>(
  'workspace/switch',
  async (workspaceId, { dispatch }) => {
    dispatch(workspaceSelected(workspaceId));
    saveCurrentWorkspaceId(workspaceId);
    return refreshAccessToken(dispatch);
  },
);

/** Remembers the workspace to fall back to when the current one is gone. */
export const setDefaultWorkspace = createAsyncThunk('workspace/setDefault', (workspaceId: string | null) => {
  saveDefaultWorkspaceId(workspaceId);
});
