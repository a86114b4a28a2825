import { errorMessage } from '../../api/apiError';
import { useAppSelector } from '../../app/hooks';
import { useToast } from '../../components/toast';
import { useResendVerificationEmailMutation } from './authApi';
import { selectCurrentUser } from './authSlice';

/**
 * The signed-in account's address verification (docs/security.md, "Verified addresses"):
 * whether it still has to be proved, and "send the link again", told in a toast.
 */
export function useEmailVerification() {
  const user = useAppSelector(selectCurrentUser);
  const { toast } = useToast();
  const [resendMutation, { isLoading: sending }] = useResendVerificationEmailMutation();
  const resend = async () => {
    try {
      const result = await resendMutation(undefined).unwrap();
      toast({ title: 'Verification link sent', description: result.message });
    } catch (caught) {
      toast({ title: 'Could not send the link', description: errorMessage(caught), variant: 'destructive' });
    }
  };
  return { needsVerification: user !== null && !user.emailVerified, email: user?.email ?? '', resend, sending };
}
