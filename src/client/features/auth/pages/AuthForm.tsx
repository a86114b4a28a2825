import type { SyntheticEvent, ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

interface AuthFormProps {
  /** Called on submit, after the browser's own submission has been prevented. */
  onSubmit: () => Promise<void>;
  /** The message for the whole form (FormErrors.form), shown above the inputs. */
  formError: string | null;
  /** While busy the submit button is disabled and shows busyLabel. */
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Disables the submit button for a reason other than being busy (e.g. an empty input). */
  disabled?: boolean;
  children: ReactNode;
}

/** The form of the sign-in screens: form-level error, the inputs, then the submit button. */
export function AuthForm({
  onSubmit,
  formError,
  busy,
  submitLabel,
  busyLabel,
  disabled = false,
  children,
}: AuthFormProps) {
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
      {formError && <Alert severity="error">{formError}</Alert>}
      {children}
      <Button type="submit" variant="contained" size="large" disabled={busy || disabled}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </Box>
  );
}
