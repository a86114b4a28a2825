import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { getAccessToken } from '../api/tokens';
import { PageSkeleton } from '../components/PageSkeleton';
import { selectAuthStatus } from '../features/auth/authSlice';
import { useAppSelector } from './hooks';

/**
 * SPEC §2/§6: dashboard routes need a signed-in user with an access token. Anyone else goes to
 * /login, carrying the location they wanted in `state.from` so sign-in can bring them back.
 * While the stored session is still being checked at start-up, a skeleton holds the place.
 */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  const location = useLocation();
  const hasToken = getAccessToken() !== null;

  if (status === 'signedIn' && hasToken) return <Outlet />;
  if (status === 'unknown' && hasToken) return <PageSkeleton />;
  return <Navigate to="/login" replace state={{ from: location }} />;
}
