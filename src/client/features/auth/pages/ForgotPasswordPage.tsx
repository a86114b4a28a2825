import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { FormTextField } from '../../../components/FormTextField';
import { useForgotPasswordMutation } from '../authApi';
import { AuthLayout } from './AuthLayout';
import { formErrorsFrom, NO_FORM_ERRORS, type FormErrors } from './formErrors';

/** /forgot-password: asks for a reset link by email. */
export default function ForgotPasswordPage() {
  const [forgotPassword, { isLoading }] = useForgotPasswordMutation();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_FORM_ERRORS);
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors(NO_FORM_ERRORS);
    try {
      const result = await forgotPassword({ email }).unwrap();
      // The server answers the same whether or not the account exists (no account probing).
      setSentMessage(result.message);
    } catch (error) {
      setErrors(formErrorsFrom(error));
    }
  };

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter your account's email and we will send you a link to choose a new password."
      footer={
        <Link component={RouterLink} to="/login">
          Back to sign in
        </Link>
      }
    >
      {sentMessage ? (
        <Alert severity="success">{sentMessage}</Alert>
      ) : (
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
          <Button type="submit" variant="contained" size="large" disabled={isLoading || email.trim() === ''}>
            {isLoading ? 'Sending...' : 'Send reset link'}
          </Button>
        </Box>
      )}
    </AuthLayout>
  );
}
