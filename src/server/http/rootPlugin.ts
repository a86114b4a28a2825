import type { FastifyInstance } from 'fastify';

// The plugins that decorate the app itself (fastify-plugin's `skip-override`) and register
// synchronously. Fastify's loader turns only a rejected plugin into a failed start: a throw while
// registering (a setting that cannot work, a decoration missing) would escape it as an uncaught
// exception and kill the process before the start could fail with its reason. rootPlugin makes
// that throw the rejection.

export type RootPlugin<O> = (app: FastifyInstance, options: O) => Promise<void>;

/** A plugin on the app itself whose registration, `register`, runs synchronously. */
export function rootPlugin<O = object>(register: (app: FastifyInstance, options: O) => void): RootPlugin<O> {
  const plugin: RootPlugin<O> = (app, options) => {
    try {
      register(app, options);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
  // Fastify names a plugin that does not start in time by its function's name.
  Object.defineProperty(plugin, 'name', { value: register.name });
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}
