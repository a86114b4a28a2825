import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';

interface FormFieldsProps {
  /** What the server said that no field owns; shown above the fields. */
  error: string | null | undefined;
  children: ReactNode;
}

/** The fields of a FormDialog, one under another, with the form's general error first. */
export function FormFields({ error, children }: FormFieldsProps) {
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      {error && <Alert severity="error">{error}</Alert>}
      {children}
    </Stack>
  );
}
