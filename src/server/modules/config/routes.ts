import type { FastifyPluginAsync } from 'fastify';
import { PLANS, type Plan } from '../../../contract/plans';
import type { PublicConfig } from '../../../contract/config';
import { ACTIVE_ENVIRONMENT } from '../../../contract/constants';
import { Paths } from '../../../contract/routes';
import { SignInProviderPaths } from '../../../contract/signInProviders';

/** Plans with the operator's price ids ("pro.monthly=price_…") laid over the placeholders. */
export function configuredPlans(priceIds: Record<string, string>): Plan[] {
  return PLANS.map((plan) => ({
    ...plan,
    priceId: {
      monthly: priceIds[`${plan.id}.monthly`] ?? plan.priceId.monthly,
      annually: priceIds[`${plan.id}.annually`] ?? plan.priceId.annually,
    },
  }));
}

export const configRoutes: FastifyPluginAsync = (app) => {
  app.get(
    Paths.config,
    { schema: { tags: ['system'], summary: 'Flags and plans the SPA needs before sign-in' } },
    () => {
      const body: PublicConfig = {
        flags: app.config.flags,
        plans: configuredPlans(app.config.priceIds),
        environment: ACTIVE_ENVIRONMENT,
        version: app.config.version,
        publicUrl: app.config.publicUrl ?? null,
        deployments: { enabled: app.config.deploymentsEnabled, allowedCommands: app.config.deploymentCommands },
        signInProviders: app.config.oidc
          ? [
              {
                id: 'oidc',
                name: app.config.oidc.name,
                clientId: app.config.oidc.clientId,
                startUrl: SignInProviderPaths.start,
              },
            ]
          : [],
      };
      return Promise.resolve(body);
    },
  );
  return Promise.resolve();
};
