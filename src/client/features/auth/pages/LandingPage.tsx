import { Navigate } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { selectIsSignedIn } from '../authSlice';
import { ProductHome } from './ProductHome';

/** `/`: the product page for visitors; a signed-in user goes straight on to the dashboard. */
export default function LandingPage() {
  const signedIn = useAppSelector(selectIsSignedIn);
  if (signedIn) return <Navigate to="/dashboard" replace />;
  return <ProductHome signedIn={false} />;
}
