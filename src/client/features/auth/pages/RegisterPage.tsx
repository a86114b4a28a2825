import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { FormTextField } from '../../../components/FormTextField';
import type { RegisterBody } from '../../../../contract/auth';
import { MIN_PASSWORD_LENGTH } from '../../../../contract/constants';
import { useRegisterMutation } from '../authApi';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { fieldProps, formErrorsFrom, NO_FORM_ERRORS, type FormErrors } from './formErrors';
import { registrationErrors } from './registrationErrors';
import { useSignInAndReturn } from './useSignInAndReturn';

const EMPTY: RegisterBody = { email: '', password: '', passwordConfirmation: '', firstName: '', lastName: '' };

/** /register: creates the account (and its personal workspace) and signs in. */
export default function RegisterPage() {
  const { signIn, returnState } = useSignInAndReturn();
  const [register] = useRegisterMutation();
  const [form, setForm] = useState<RegisterBody>(EMPTY);
  const [errors, setErrors] = useState<FormErrors>(NO_FORM_ERRORS);
  const [submitting, setSubmitting] = useState(false);

  const field = (name: keyof RegisterBody) =>
    fieldProps(errors, name, form[name], (value) => setForm((current) => ({ ...current, [name]: value })));

  const submit = async () => {
    setErrors(NO_FORM_ERRORS);
    // Every field checked here first, all at once: no round trip to learn about each typo.
    const invalid = registrationErrors(form);
    if (Object.keys(invalid).length > 0) {
      setErrors({ fields: invalid, form: null });
      return;
    }
    setSubmitting(true);
    try {
      const result = await register(form).unwrap();
      // The server signs the new account in; should it not, sign in with what was just typed.
      await signIn(
        result.accessToken && result.refreshToken
          ? { accessToken: result.accessToken, refreshToken: result.refreshToken }
          : { email: form.email, password: form.password },
      );
    } catch (error) {
      setErrors(formErrorsFrom(error));
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start tracing your agents' tool calls in minutes."
      footer={
        <>
          Already have an account?{' '}
          <Link component={RouterLink} to="/login" state={returnState}>
            Sign in
          </Link>
        </>
      }
    >
      <AuthForm
        onSubmit={submit}
        formError={errors.form}
        busy={submitting}
        submitLabel="Create account"
        busyLabel="Creating account..."
      >
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <FormTextField label="First name" autoComplete="given-name" required autoFocus {...field('firstName')} />
          <FormTextField label="Last name" autoComplete="family-name" required {...field('lastName')} />
        </Box>
        <FormTextField label="Email" type="email" autoComplete="email" required {...field('email')} />
        <FormTextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          {...field('password')}
          helperText={errors.fields.password ?? `At least ${MIN_PASSWORD_LENGTH} characters`}
        />
        <FormTextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          required
          {...field('passwordConfirmation')}
        />
      </AuthForm>
    </AuthLayout>
  );
}
