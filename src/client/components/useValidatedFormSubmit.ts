import { useState, type SyntheticEvent } from 'react';
import type { FieldErrors } from '../api/apiError';
import type { FormFailure } from './useFormDialogSubmit';

/**
 * The submit cycle of a form dialog that checks its values in the browser first: the browser's
 * errors show at their fields and nothing is sent; then busy while sending, and the server's
 * field texts at the fields, its message above the form only when no field carries it.
 */
export function useValidatedFormSubmit<Values>(
  values: Values,
  validate: (values: Values) => FieldErrors,
  onSubmit: (values: Values) => Promise<FormFailure | null>,
) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Shows the browser's errors at the fields (none clears them); true when there are none. */
  const check = () => {
    const found = validate(values);
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (busy || !check()) return;
    setBusy(true);
    setGeneral(null);
    const failure = await onSubmit(values);
    setBusy(false);
    if (failure) {
      setErrors(failure.fields);
      if (Object.keys(failure.fields).length === 0) setGeneral(failure.message);
    }
  };

  return { busy, errors, general, check, submit };
}
