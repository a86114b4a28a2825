import { useState } from 'react';
import Alert from '@mui/material/Alert';
import DialogContentText from '@mui/material/DialogContentText';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormDialogSubmit, type FormFailure } from '../../../components/useFormDialogSubmit';
import { FormDialog } from '../../../components/FormDialog';

export type AddableRole = 'member' | 'admin';

export interface AddMemberValues {
  email: string;
  role: AddableRole;
}

export type AddMemberFailure = FormFailure;

interface AddMemberDialogProps {
  /** Resolves to null on success, or to the error to show (message and per-field texts). */
  onSubmit: (values: AddMemberValues) => Promise<AddMemberFailure | null>;
  onClose: () => void;
}

const ROLE_OPTIONS: { value: AddableRole; label: string; hint: string }[] = [
  { value: 'member', label: 'Member', hint: 'Sees and uses everything in the workspace' },
  { value: 'admin', label: 'Admin', hint: 'Also adds and removes members' },
];

/** Adds someone who already has a Toolscope account, by email, as a member or an admin. */
export function AddMemberDialog({ onSubmit, onClose }: AddMemberDialogProps) {
  const [values, setValues] = useState<AddMemberValues>({ email: '', role: 'member' });
  const blank = !values.email.trim();
  const { busy, fields, general, submit } = useFormDialogSubmit(
    () => onSubmit({ email: values.email.trim(), role: values.role }),
    blank,
  );

  return (
    <FormDialog
      titleId="add-member-title"
      title="Add member"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel="Add member"
      busyLabel="Adding..."
      submitDisabled={blank}
    >
      <DialogContentText sx={{ mb: 2 }}>
        They get an invitation by email (and a notification, if they have an account) and join when they accept it; an
        address without a Toolscope account can sign up with it and accept. Invitations lapse after 14 days.
      </DialogContentText>
      <Stack spacing={2.5}>
        {general && <Alert severity="error">{general}</Alert>}
        <TextField
          label="Email"
          name="email"
          type="email"
          value={values.email}
          onChange={(event) => setValues((current) => ({ ...current, email: event.target.value }))}
          placeholder="teammate@example.com"
          required
          autoFocus
          disabled={busy}
          error={Boolean(fields.email)}
          helperText={fields.email}
        />
        <FormControl disabled={busy} error={Boolean(fields.role)}>
          <FormLabel id="add-member-role">Role</FormLabel>
          <RadioGroup
            aria-labelledby="add-member-role"
            name="role"
            value={values.role}
            onChange={(event) => setValues((current) => ({ ...current, role: event.target.value as AddableRole }))}
          >
            {ROLE_OPTIONS.map((option) => (
              <FormControlLabel
                key={option.value}
                value={option.value}
                control={<Radio />}
                label={
                  <>
                    {option.label}
                    <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                      {option.hint}
                    </Typography>
                  </>
                }
              />
            ))}
          </RadioGroup>
          {fields.role && (
            <Typography variant="caption" color="error">
              {fields.role}
            </Typography>
          )}
        </FormControl>
      </Stack>
    </FormDialog>
  );
}
