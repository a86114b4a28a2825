import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { FormTextField } from '../../../components/FormTextField';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { fieldProps, formErrorsFrom, NO_FORM_ERRORS, type FormErrors } from './formErrors';
import { useSignInAndReturn } from './useSignInAndReturn';
import { ProviderSignIn } from './ProviderSignIn';

const WRONG_CREDENTIALS =
  'That email and password do not match an account. Check them and try again, or reset your password.';

/** /login: email and password; afterwards back to where the visitor was going. */
export default function LoginPage() {
  const { signIn, returnState } = useSignInAndReturn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_FORM_ERRORS);
  const [submitting, setSubmitting] = useState(false);

  const submit = async () => {
    setSubmitting(true);
    setErrors(NO_FORM_ERRORS);
    try {
      await signIn({ email, password });
    } catch (error) {
      setErrors(formErrorsFrom(error, { 401: WRONG_CREDENTIALS }));
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title="Sign in"
      subtitle="Welcome back to Toolscope."
      footer={
        <>
          New to Toolscope?{' '}
          <Link component={RouterLink} to="/register" state={returnState}>
            Create an account
          </Link>
        </>
      }
    >
      <AuthForm
        onSubmit={submit}
        formError={errors.form}
        busy={submitting}
        submitLabel="Sign in"
        busyLabel="Signing in..."
      >
        <FormTextField
          label="Email"
          type="email"
          autoComplete="email"
          autoFocus
          required
          {...fieldProps(errors, 'email', email, setEmail)}
        />
        <FormTextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          {...fieldProps(errors, 'password', password, setPassword)}
        />
        <Box sx={{ textAlign: 'right', mt: -1 }}>
          <Link component={RouterLink} to="/forgot-password" variant="body2">
            Forgot password?
          </Link>
        </Box>
      </AuthForm>
      <ProviderSignIn />
    </AuthLayout>
  );
}
