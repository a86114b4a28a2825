import { errorMessage, fieldErrors, isApiError, type FieldErrors } from '../../../api/apiError';

export interface FormErrors {
  /** Messages shown at the inputs, keyed by field name (body.fields of the server's answer). */
  fields: FieldErrors;
  /** A message for the whole form, when the error is not about one field. */
  form: string | null;
}

export const NO_FORM_ERRORS: FormErrors = { fields: {}, form: null };

/**
 * Splits a rejected request into field errors (shown at the field) and a form-level message. The
 * client error keeps SPEC §8's text ("API Error 401: …"); a form speaks to a person, so it shows
 * the server's sentence without the status prefix, or `byStatus`'s sentence for that status.
 */
export function formErrorsFrom(error: unknown, byStatus: Partial<Record<number, string>> = {}): FormErrors {
  const fields = fieldErrors(error);
  if (Object.keys(fields).length > 0) return { fields, form: null };
  const status = isApiError(error) && typeof error.status === 'number' ? error.status : undefined;
  const sentence = status === undefined ? undefined : byStatus[status];
  return { fields: {}, form: sentence ?? errorMessage(error).replace(/^API Error \d{3}: /, '') };
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
