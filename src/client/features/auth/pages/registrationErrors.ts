import { RegisterBody } from '../../../../contract/auth';

/**
 * Every problem of the sign-up form at once, by field, with the server's own rules (the contract's
 * RegisterBody): the user fixes them all before a round trip, instead of one per submit.
 */
export function registrationErrors(form: RegisterBody): Record<string, string> {
  const fields: Record<string, string> = {};
  const parsed = RegisterBody.safeParse(form);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (key && !fields[key]) fields[key] = issue.message;
    }
  }
  // An object's refinement may not run while a field is invalid: check the match ourselves.
  if (form.password !== form.passwordConfirmation && !fields.passwordConfirmation)
    fields.passwordConfirmation = 'Passwords do not match';
  return fields;
}
