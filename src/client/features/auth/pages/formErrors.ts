import { errorMessage, fieldErrors } from '../../../api/apiError';

export interface FormErrors {
  /** Messages shown at the inputs, keyed by field name (body.fields of the server's answer). */
  fields: Record<string, string>;
  /** A message for the whole form, when the error is not about one field. */
  form: string | null;
}

export const NO_FORM_ERRORS: FormErrors = { fields: {}, form: null };

/** Splits a rejected request into field errors (shown at the field) and a form-level message. */
export function formErrorsFrom(error: unknown): FormErrors {
  const fields = fieldErrors(error);
  return Object.keys(fields).length > 0 ? { fields, form: null } : { fields: {}, form: errorMessage(error) };
}

/** The props binding a FormTextField to a value and to its field error, if any. */
export function fieldProps(errors: FormErrors, name: string, value: string, setValue: (value: string) => void) {
  return {
    name,
    value,
    onChange: (event: { target: { value: string } }) => setValue(event.target.value),
    error: Boolean(errors.fields[name]),
    helperText: errors.fields[name],
  };
}
