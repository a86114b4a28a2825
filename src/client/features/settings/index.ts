// The settings feature's surface for other features: the user's preferences.
export { useGetPreferencesQuery } from './settingsApi';
