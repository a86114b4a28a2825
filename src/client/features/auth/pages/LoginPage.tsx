import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { FormTextField } from '../../../components/FormTextField';
import { useAppDispatch } from '../../../app/hooks';
import { login } from '../session';
import { AuthLayout } from './AuthLayout';
import { formErrorsFrom, NO_FORM_ERRORS, type FormErrors } from './formErrors';
import { returnPathFrom } from './returnPath';

/** /login: email and password; afterwards back to where the visitor was going. */
export default function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_FORM_ERRORS);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setErrors(NO_FORM_ERRORS);
    try {
      await dispatch(login({ email, password })).unwrap();
      navigate(returnPathFrom(location.state), { replace: true });
    } catch (error) {
      setErrors(formErrorsFrom(error));
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
          <Link component={RouterLink} to="/register" state={location.state}>
            Create an account
          </Link>
        </>
      }
    >
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2 }}>
        {errors.form && <Alert severity="error">{errors.form}</Alert>}
        <FormTextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          autoFocus
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={Boolean(errors.fields.email)}
          helperText={errors.fields.email}
        />
        <FormTextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={Boolean(errors.fields.password)}
          helperText={errors.fields.password}
        />
        <Box sx={{ textAlign: 'right', mt: -1 }}>
          <Link component={RouterLink} to="/forgot-password" variant="body2">
            Forgot password?
          </Link>
        </Box>
        <Button type="submit" variant="contained" size="large" disabled={submitting}>
          {submitting ? 'Signing in...' : 'Sign in'}
        </Button>
      </Box>
    </AuthLayout>
  );
}
