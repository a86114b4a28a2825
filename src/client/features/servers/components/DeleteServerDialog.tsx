import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';

interface DeleteServerDialogProps {
  serverName: string;
  /** Resolves to null on success, or to the error text. */
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
}

/** Asks before removing a server: its proxy URL stops working for every agent using it. */
export function DeleteServerDialog({ serverName, onConfirm, onClose }: DeleteServerDialogProps) {
  return (
    <ConfirmDestructiveDialog
      title={`Delete ${serverName}?`}
      confirmLabel="Delete server"
      busyLabel="Deleting..."
      onConfirm={onConfirm}
      onClose={onClose}
    >
      Its proxy URL stops working at once, agents pointed at it lose these tools, and its recorded sessions, tool calls
      and schemas are deleted with it.
    </ConfirmDestructiveDialog>
  );
}
