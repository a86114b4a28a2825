import { authListeners } from '../features/auth/authListeners';
import { notificationsListeners } from '../features/notifications/notificationsListeners';
import { serversCacheListeners } from '../features/servers/serversCacheListeners';
import { settingsListeners } from '../features/settings/settingsListeners';
import { workspaceListeners } from '../features/workspaces/workspaceListeners';
import { startAppListening } from './listeners';

let registered = false;

/**
 * Registers every feature's reactions on the one listener middleware, once (every store made by
 * makeStore shares the middleware, so tests' stores react as the app's does). A feature adds its
 * listeners with one line here; features never import app/store.
 */
export function registerAppListeners(): void {
  if (registered) return;
  registered = true;
  authListeners(startAppListening);
  workspaceListeners(startAppListening);
  settingsListeners(startAppListening);
  serversCacheListeners(startAppListening);
  notificationsListeners(startAppListening);
}
