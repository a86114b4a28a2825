import type { ChangeEvent } from 'react';
import type { FieldErrors } from '../api/apiError';

/** The keys of a form's values that hold text (a select's value is text too). */
export type TextKeys<Values> = { [Key in keyof Values]: Values[Key] extends string ? Key : never }[keyof Values] &
  string;

interface TextFieldBinding {
  /** Shown under the field while no error stands at it. */
  help?: string;
  /** Where the field's error stands when not under its own name (e.g. 'limits.memoryMb'). */
  errorKey?: string;
}

/**
 * Binds a form dialog's text fields to its values, its busy state and its errors (the browser's or
 * the server's): `<TextField label="Name" {...field('name')} required />`. An error at a field
 * stands in place of its help text.
 */
export function bindTextFields<Values>(
  values: Values,
  errors: FieldErrors,
  busy: boolean,
  onText: (name: TextKeys<Values>, text: string) => void,
) {
  return (name: TextKeys<Values>, { help, errorKey = name }: TextFieldBinding = {}) => ({
    name,
    value: values[name] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onText(name, event.target.value),
    disabled: busy,
    error: Boolean(errors[errorKey]),
    helperText: errors[errorKey] ?? help,
  });
}
