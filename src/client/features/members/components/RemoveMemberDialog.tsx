import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';

interface RemoveMemberDialogProps {
  memberName: string;
  workspaceName: string;
  /** Resolves to null on success, or to the error text. */
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
}

/** Asks before taking someone out of the workspace: they lose access at once. */
export function RemoveMemberDialog({ memberName, workspaceName, onConfirm, onClose }: RemoveMemberDialogProps) {
  return (
    <ConfirmDestructiveDialog
      title={`Remove ${memberName}?`}
      confirmLabel="Remove member"
      busyLabel="Removing..."
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {memberName} loses access to {workspaceName} at once: its servers, sessions and analytics. You can add them again
      later.
    </ConfirmDestructiveDialog>
  );
}
