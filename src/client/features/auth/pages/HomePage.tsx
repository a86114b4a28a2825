import { useAppSelector } from '../../../app/hooks';
import { selectIsSignedIn } from '../authSlice';
import { ProductHome } from './ProductHome';

/** `/home`: the product page for everyone, signed in or not (it never redirects). */
export default function HomePage() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return <ProductHome signedIn={signedIn} />;
}
