import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { FormTextField } from '../../../components/FormTextField';
import type { RegisterBody } from '../../../../contract/auth';
import { MIN_PASSWORD_LENGTH } from '../../../../contract/constants';
import { useAppDispatch } from '../../../app/hooks';
import { useRegisterMutation } from '../authApi';
import { login } from '../session';
import { AuthLayout } from './AuthLayout';
import { formErrorsFrom, NO_FORM_ERRORS, type FormErrors } from './formErrors';
import { returnPathFrom } from './returnPath';

const EMPTY: RegisterBody = { email: '', password: '', passwordConfirmation: '', firstName: '', lastName: '' };

/** /register: creates the account (and its personal workspace) and signs in. */
export default function RegisterPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [register] = useRegisterMutation();
  const [form, setForm] = useState<RegisterBody>(EMPTY);
  const [errors, setErrors] = useState<FormErrors>(NO_FORM_ERRORS);
  const [submitting, setSubmitting] = useState(false);

  const field = (name: keyof RegisterBody) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
    error: Boolean(errors.fields[name]),
    helperText: errors.fields[name],
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors(NO_FORM_ERRORS);
    // Caught here so the user does not wait for a round trip to learn about a typo.
    if (form.password !== form.passwordConfirmation) {
      setErrors({ fields: { passwordConfirmation: 'Passwords do not match' }, form: null });
      return;
    }
    setSubmitting(true);
    try {
      const result = await register(form).unwrap();
      // The server signs the new account in; should it not, sign in with what was just typed.
      const signIn =
        result.accessToken && result.refreshToken
          ? { accessToken: result.accessToken, refreshToken: result.refreshToken }
          : { email: form.email, password: form.password };
      await dispatch(login(signIn)).unwrap();
      navigate(returnPathFrom(location.state), { replace: true });
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
          <Link component={RouterLink} to="/login" state={location.state}>
            Sign in
          </Link>
        </>
      }
    >
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2 }}>
        {errors.form && <Alert severity="error">{errors.form}</Alert>}
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
        <FormTextField label="Confirm password" type="password" autoComplete="new-password" required {...field('passwordConfirmation')} />
        <Button type="submit" variant="contained" size="large" disabled={submitting}>
          {submitting ? 'Creating account...' : 'Create account'}
        </Button>
      </Box>
    </AuthLayout>
  );
}
