import { useState, type SyntheticEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { MIN_PASSWORD_LENGTH } from '../../../../contract/constants';
import { errorMessage, fieldErrors, type FieldErrors } from '../../../api/apiError';
import { useToast } from '../../../components/toast';
import { useChangePasswordMutation } from '../settingsApi';

const EMPTY = { currentPassword: '', newPassword: '', newPasswordConfirmation: '' };

/** Change password: current, new and confirmation; every other sign-in is signed out. */
export function PasswordForm() {
  const { toast } = useToast();
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = (key: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: event.target.value }));

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    // Every field checked here first, so one round trip shows every mistake.
    const local: FieldErrors = {};
    if (!values.currentPassword) local.currentPassword = 'Required';
    if (values.newPassword.length < MIN_PASSWORD_LENGTH)
      local.newPassword = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
    if (values.newPasswordConfirmation !== values.newPassword) local.newPasswordConfirmation = 'Passwords do not match';
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    try {
      const result = await changePassword(values).unwrap();
      setValues(EMPTY);
      const others = result.signedOutOthers;
      toast({
        title: 'Password changed',
        description:
          others > 0
            ? `${others} other sign-in${others === 1 ? ' was' : 's were'} signed out.`
            : 'No other sign-in was active.',
      });
    } catch (caught) {
      const fields = fieldErrors(caught);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(errorMessage(caught));
    }
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-label="Change password"
      sx={{ maxWidth: 420 }}
    >
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Stack spacing={2}>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set('currentPassword')}
          error={Boolean(errors.currentPassword)}
          helperText={errors.currentPassword}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set('newPassword')}
          error={Boolean(errors.newPassword)}
          helperText={errors.newPassword ?? `At least ${MIN_PASSWORD_LENGTH} characters`}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={values.newPasswordConfirmation}
          onChange={set('newPasswordConfirmation')}
          error={Boolean(errors.newPasswordConfirmation)}
          helperText={errors.newPasswordConfirmation}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {isLoading ? 'Changing…' : 'Change password'}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
