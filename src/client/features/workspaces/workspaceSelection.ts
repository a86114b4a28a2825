import { StorageKeys } from '../../../contract/constants';

// SPEC §4 Workspace selection. The ids are saved under the local storage keys of
// contract/constants, so the choice survives reloads and is shared by tabs.

/** The stored current id, then the stored default id, then the first in the list. */
export function chooseWorkspace<W extends { id: string }>(
  workspaces: readonly W[],
  currentId: string | null,
  defaultId: string | null,
): W | null {
  return (
    workspaces.find((w) => w.id === currentId) ?? workspaces.find((w) => w.id === defaultId) ?? workspaces.at(0) ?? null
  );
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key) || null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value) window.localStorage.setItem(key, value);
    else window.localStorage.removeItem(key);
  } catch {
    // The selection still holds for this visit.
  }
}

export const readStoredCurrentWorkspaceId = () => read(StorageKeys.currentWorkspace);
export const readStoredDefaultWorkspaceId = () => read(StorageKeys.defaultWorkspace);
export const saveCurrentWorkspaceId = (id: string | null) => write(StorageKeys.currentWorkspace, id);
export const saveDefaultWorkspaceId = (id: string | null) => write(StorageKeys.defaultWorkspace, id);
