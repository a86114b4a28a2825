import type { Flags } from './flags';
import type { Plan } from './plans';
import type { DeploymentsSettings } from './deployments';
import type { SignInProvider } from './signInProviders';

/** GET /api/v1/config (public): what the SPA needs before sign-in. */
export interface PublicConfig {
  flags: Flags;
  plans: Plan[];
  environment: string;
  version: string;
  /** Where agents reach the proxy, e.g. https://toolscope.example.com */
  publicUrl: string | null;
  /** Whether this instance runs deployments (TOOLSCOPE_DEPLOYMENTS) and which commands it allows. */
  deployments: DeploymentsSettings;
  /** Identity providers a user can sign in with (empty: email and password only). */
  signInProviders: SignInProvider[];
}
