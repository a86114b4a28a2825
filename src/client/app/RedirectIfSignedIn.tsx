import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { selectIsSignedIn } from '../features/auth/authSlice';
import { returnPathFrom } from '../features/auth/pages/returnPath';
import { useAppSelector } from './hooks';

/** /login and /register have nothing to offer a signed-in user: send them on. */
export function RedirectIfSignedIn() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const location = useLocation();
  if (signedIn) return <Navigate to={returnPathFrom(location.state)} replace />;
  return <Outlet />;
}
