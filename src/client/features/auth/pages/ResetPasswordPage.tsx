import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { FormTextField } from '../../../components/FormTextField';
import { MIN_PASSWORD_LENGTH } from '../../../../contract/constants';
import { useResetPasswordMutation } from '../authApi';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { fieldProps, formErrorsFrom, NO_FORM_ERRORS, type FormErrors } from './formErrors';

/** /reset-password?token=…: the page the emailed link opens; sets a new password. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const [password, setPassword] = useState('');
  const [passwordConfirmation, setPasswordConfirmation] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_FORM_ERRORS);
  const [doneMessage, setDoneMessage] = useState<string | null>(null);

  const submit = async () => {
    setErrors(NO_FORM_ERRORS);
    if (password !== passwordConfirmation) {
      setErrors({ fields: { passwordConfirmation: 'Passwords do not match' }, form: null });
      return;
    }
    try {
      const result = await resetPassword({ token, password, passwordConfirmation }).unwrap();
      setDoneMessage(result.message);
    } catch (error) {
      const next = formErrorsFrom(error);
      // An invalid or expired token is about the link, not an input: say it for the whole form.
      if (next.fields.token) setErrors({ fields: {}, form: next.fields.token });
      else setErrors(next);
    }
  };

  const footer = (
    <Link component={RouterLink} to="/login">
      Back to sign in
    </Link>
  );

  if (!token) {
    return (
      <AuthLayout title="Choose a new password" footer={footer}>
        <Alert
          severity="error"
          action={
            <Button component={RouterLink} to="/forgot-password" color="inherit" size="small">
              Request a new link
            </Button>
          }
        >
          This page needs the link from the password reset email.
        </Alert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Choose a new password" footer={footer}>
      {doneMessage ? (
        <Alert
          severity="success"
          action={
            <Button component={RouterLink} to="/login" color="inherit" size="small">
              Sign in
            </Button>
          }
        >
          {doneMessage}
        </Alert>
      ) : (
        <AuthForm
          onSubmit={submit}
          formError={errors.form}
          busy={isLoading}
          submitLabel="Set new password"
          busyLabel="Saving..."
        >
          <FormTextField
            label="New password"
            type="password"
            autoComplete="new-password"
            autoFocus
            required
            {...fieldProps(errors, 'password', password, setPassword)}
            helperText={errors.fields.password ?? `At least ${MIN_PASSWORD_LENGTH} characters`}
          />
          <FormTextField
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            required
            {...fieldProps(errors, 'passwordConfirmation', passwordConfirmation, setPasswordConfirmation)}
          />
        </AuthForm>
      )}
    </AuthLayout>
  );
}
