import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { FormTextField } from '../../../components/FormTextField';
import { useForgotPasswordMutation } from '../authApi';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { fieldProps, formErrorsFrom, NO_FORM_ERRORS, type FormErrors } from './formErrors';

/** /forgot-password: asks for a reset link by email. */
export default function ForgotPasswordPage() {
  const [forgotPassword, { isLoading }] = useForgotPasswordMutation();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_FORM_ERRORS);
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  const submit = async () => {
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
        <AuthForm
          onSubmit={submit}
          formError={errors.form}
          busy={isLoading}
          disabled={email.trim() === ''}
          submitLabel="Send reset link"
          busyLabel="Sending..."
        >
          <FormTextField
            label="Email"
            type="email"
            autoComplete="email"
            autoFocus
            required
            {...fieldProps(errors, 'email', email, setEmail)}
          />
        </AuthForm>
      )}
    </AuthLayout>
  );
}
