import { useState, type SyntheticEvent } from 'react';
import type { FieldErrors } from '../api/apiError';

/** What a dialog's submit handler resolves to when the server refused: a message and per-field texts. */
export interface FormFailure {
  message: string;
  fields: FieldErrors;
}

/**
 * The submit cycle every form dialog shares: ignore while blank or busy, show busy, keep the
 * failure. Field texts show at their fields; the message shows above the form only when no
 * field carries it.
 */
export function useFormDialogSubmit(submitValues: () => Promise<FormFailure | null>, blank: boolean) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormFailure | null>(null);

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (blank || busy) return;
    setBusy(true);
    setError(null);
    const outcome = await submitValues();
    setBusy(false);
    if (outcome) setError(outcome);
  };

  const fields = error?.fields ?? {};
  const general = error && Object.keys(fields).length === 0 ? error.message : null;
  return { busy, fields, general, submit };
}
