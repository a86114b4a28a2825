import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { upstreamOAuthErrorText } from '../../../contract/upstreamOAuth';
import { useToast } from '../../components/toast';

/**
 * Back from a server's authorization server (/servers?oauth=connected or ?oauth_error=…): says how
 * it went once, then takes the parameters out of the address so a reload does not say it again.
 */
export function useUpstreamOAuthReturn(): void {
  const [params, setParams] = useSearchParams();
  const { toast } = useToast();
  const connected = params.get('oauth') === 'connected';
  const failure = upstreamOAuthErrorText(params.get('oauth_error'));
  useEffect(() => {
    if (!connected && !failure) return;
    if (connected) toast({ title: 'Server connected', description: 'Agents can use it through its proxy URL now.' });
    else toast({ title: 'The server was not connected', description: failure ?? '', variant: 'destructive' });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('oauth');
        next.delete('oauth_error');
        return next;
      },
      { replace: true },
    );
  }, [connected, failure, setParams, toast]);
}
