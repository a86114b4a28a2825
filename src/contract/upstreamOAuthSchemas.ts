import { z } from 'zod';
import { UPSTREAM_OAUTH_STATUSES, type UpstreamOAuthConnectionDto as ConnectionShape } from './upstreamOAuth';

// The answers and bodies of the upstream OAuth routes (upstreamOAuth.ts has the paths and texts).

export const UpstreamOAuthConnectionDto = z.object({
  serverId: z.string(),
  status: z.enum(UPSTREAM_OAUTH_STATUSES),
  issuer: z.string().nullable(),
  scope: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Who the tokens act as, when the authorization server said. */
  connectedAs: z.string().nullable(),
  /** The Toolscope user who connected it. */
  connectedBy: z.string().nullable(),
  lastError: z.string().nullable(),
  updatedAt: z.string(),
});
// The schema and the interface the SPA reads describe one answer: a difference fails the build.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const connectionShapeMatches: Same<z.infer<typeof UpstreamOAuthConnectionDto>, ConnectionShape> = true;
export const UpstreamOAuthList = z.object({ connections: z.array(UpstreamOAuthConnectionDto) });

export const ConnectUpstreamOAuthBody = z.object({
  /** A client registered for Toolscope by hand (servers without dynamic registration). */
  clientId: z.string().trim().min(1).max(512).optional(),
  clientSecret: z.string().min(1).max(2048).optional(),
  /** Where the browser returns afterwards (a same-site path). */
  returnPath: z.string().max(2000).optional(),
});
export const ConnectUpstreamOAuthResult = z.object({ authorizationUrl: z.string() });
