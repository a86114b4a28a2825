import { isAnyOf } from '@reduxjs/toolkit';
import type { Preferences } from '../../../contract/auth';
import type { AppStartListening } from '../../app/listeners';
import { setDateDisplay } from '../../components/dates/dateDisplay';
import { signedIn } from '../auth/authSlice';
import { saveDefaultWorkspaceId } from '../workspaces';
import { settingsApi } from './settingsApi';

// The preferences reach beyond the settings page: every date follows the time zone and formats,
// and the default workspace is the second step of SPEC §4's selection order. They are loaded as
// soon as someone signs in, and applied whenever they load or change.
function applyPreferences(preferences: Preferences): void {
  setDateDisplay({
    timeZone: preferences.timezone ?? undefined,
    dateFormat: preferences.dateFormat ?? 'locale',
    timeFormat: preferences.timeFormat ?? 'locale',
  });
  if (preferences.defaultWorkspaceId !== undefined) saveDefaultWorkspaceId(preferences.defaultWorkspaceId ?? null);
}

export function settingsListeners(startAppListening: AppStartListening): void {
  startAppListening({
    matcher: isAnyOf(
      settingsApi.endpoints.getPreferences.matchFulfilled,
      settingsApi.endpoints.updatePreferences.matchFulfilled,
    ),
    effect: (action) => applyPreferences((action as unknown as { payload: Preferences }).payload),
  });

  startAppListening({
    actionCreator: signedIn,
    effect: (_action, api) => {
      const load = api.dispatch(
        settingsApi.endpoints.getPreferences.initiate(undefined, { subscribe: false, forceRefetch: true }),
      );
      void load;
    },
  });
}
