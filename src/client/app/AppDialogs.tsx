import { useCallback } from 'react';
import { UpgradeDialog } from '../features/billing/UpgradeDialog';
import { CreateWorkspaceDialog } from '../features/workspaces/CreateWorkspaceDialog';
import { closeDialog, openDialog, selectOpenDialog } from './dialogsSlice';
import { useAppDispatch, useAppSelector } from './hooks';

/**
 * Renders the app-level dialog that is open (selectOpenDialog). A dialog is mounted only while it
 * is open, so each opening starts its machine afresh (docs/dialogs.md). The onboarding dialog
 * decides its own opening from the location and the servers list (SPEC §4 Onboarding); its
 * feature adds it here (a case for 'onboarding') or mounts it in the shell.
 */
export function AppDialogs() {
  const dispatch = useAppDispatch();
  const open = useAppSelector(selectOpenDialog);
  const close = useCallback(() => dispatch(closeDialog()), [dispatch]);
  const openUpgrade = useCallback(() => dispatch(openDialog('upgrade')), [dispatch]);

  switch (open) {
    case 'createWorkspace':
      return <CreateWorkspaceDialog onClose={close} onUpgradeRequested={openUpgrade} />;
    case 'upgrade':
      return <UpgradeDialog onClose={close} />;
    default:
      return null;
  }
}
