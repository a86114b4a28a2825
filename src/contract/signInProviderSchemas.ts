import { z } from 'zod';

// The bodies and answers of the identity routes (signInProviders.ts has the paths and texts).

export const LinkIdentityBody = z.object({
  /** Where the browser returns after the provider (a same-site path). */
  returnPath: z.string().max(2000).optional(),
});
export const LinkIdentityResult = z.object({ authorizationUrl: z.string() });

export const LinkedIdentityDto = z.object({
  provider: z.string(),
  email: z.string(),
  linkedAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type LinkedIdentityDto = z.infer<typeof LinkedIdentityDto>;
export const LinkedIdentitiesResult = z.object({ identities: z.array(LinkedIdentityDto) });
