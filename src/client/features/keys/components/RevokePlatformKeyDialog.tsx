import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { DEFAULT_REVOKE_REASON, type PlatformKeyDto } from '../../../../contract/keys';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';

/** Revoke with a reason (SPEC §3: 'Revoked by user' when none is given). */
export function RevokePlatformKeyDialog({
  platformKey,
  onRevoke,
  onClose,
}: {
  platformKey: PlatformKeyDto;
  onRevoke: (reason: string) => Promise<string | null>;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <ConfirmDestructiveDialog
      title={`Revoke ${platformKey.name}?`}
      confirmLabel="Revoke key"
      busyLabel="Revoking..."
      onConfirm={() => onRevoke(reason.trim())}
      onClose={onClose}
      after={
        <TextField
          label="Reason"
          placeholder={DEFAULT_REVOKE_REASON}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          fullWidth
          multiline
          minRows={2}
          sx={{ mt: 2 }}
          slotProps={{ htmlInput: { maxLength: 500 } }}
          helperText={`${reason.length}/500`}
        />
      }
    >
      Agents using <strong>{platformKey.prefix}…</strong> are refused within a second. The key stays listed as revoked.
    </ConfirmDestructiveDialog>
  );
}
