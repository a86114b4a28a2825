import Fastify from 'fastify';
import type { RootPlugin } from '../../../src/server/http/rootPlugin';
import { deploymentsPlugin } from '../../../src/server/deployments/deploymentsPlugin';
import { integrationsPlugin } from '../../../src/server/integrations/integrationsPlugin';
import { prometheusPlugin } from '../../../src/server/metrics/prometheusPlugin';
import { notificationsPlugin } from '../../../src/server/notifications/notificationsPlugin';
import { telemetryPlugin } from '../../../src/server/telemetry/telemetryPlugin';

// A plugin that cannot register (here: an app without the settings and decorations it reads)
// must fail the start — app.ready() rejects with its error — instead of throwing past Fastify's
// loader as an uncaught exception, which kills the process before Toolscope can say why.

const plugins: [string, RootPlugin<object>][] = [
  ['telemetry', telemetryPlugin],
  ['prometheus', prometheusPlugin],
  ['notifications', notificationsPlugin],
  ['integrations', integrationsPlugin],
  ['deployments', deploymentsPlugin],
];

describe('a root plugin that throws while registering', () => {
  it.each(plugins)('%s: the start fails with its error', async (_name, plugin) => {
    const app = Fastify();
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.prependListener('uncaughtException', onUncaught);
    try {
      void app.register(plugin);
      await expect(app.ready()).rejects.toThrow(TypeError);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      await app.close().catch(() => undefined);
    }
    expect(uncaught).toEqual([]);
  });
});
