import { useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../../../app/hooks';
import { login } from '../session';
import { returnPathFrom } from './returnPath';

/**
 * For the sign-in and sign-up screens: `signIn` signs in (rejecting as login does) and then goes
 * where the visitor was going; `returnState` is the router state to pass on to the other screen
 * so that destination is kept.
 */
export function useSignInAndReturn() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const signIn = async (credentials: Parameters<typeof login>[0]) => {
    await dispatch(login(credentials)).unwrap();
    void navigate(returnPathFrom(location.state), { replace: true });
  };
  return { signIn, returnState: location.state as unknown };
}
