import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { getAccessToken } from '../api/tokens';
import { selectIsSignedIn } from '../features/auth/authSlice';
import { returnPathFrom } from '../features/auth/pages/returnPath';
import { useAppSelector } from './hooks';

/**
 * /login and /register have nothing to offer a signed-in user: send them on. The token is
 * checked too (as RequireAuth does), so a session whose tokens another tab just cleared cannot
 * bounce between /login and a protected page.
 */
export function RedirectIfSignedIn() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const location = useLocation();
  if (signedIn && getAccessToken() !== null) return <Navigate to={returnPathFrom(location.state)} replace />;
  return <Outlet />;
}
